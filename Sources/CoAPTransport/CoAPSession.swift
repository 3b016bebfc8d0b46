import CoAP
import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import TLV8
import WireParsing

/// One HAP-over-CoAP connection: the datagrams between one controller endpoint and one accessory
/// endpoint. aiohomekit sends a pair-setup from one port, each pair-verify and the session that
/// follows from a port of its own (where the events arrive too), and an identify from another,
/// so a controller port is the unit a session lives in (docs/coap.md "CoAP resources").
///
/// Each message is checked for retransmission (message ID and type per sender, RFC 7252 §4.5),
/// requests are matched to responses by token (§5.3.2), Block1/Block2 bodies are joined (RFC 7959),
/// and whole bodies go by resource: `/1` and `/2` to `PairingFollower`, `/` to the session's
/// cipher and the PDU codec (`HAPPDU`), the accessory's PUT to `/` as events.
final class CoAPSession {
    let info: ConnectionInfo
    let deviceID: String?
    let firstPacket: PacketInfo
    private(set) var lastPacket: PacketInfo
    private let context: AnalysisContext

    private var recent: [HAPDirection: RecentMessages] = [:]
    private var pending: [PendingKey: PendingRequest] = [:]
    private var pendingOrder: [PendingKey] = []
    private var blocks: BlockwiseAssembler<BlockKey>
    private var pairing = PairingFollower()
    private var controllerEphemeralKey: [UInt8]?
    private var accessoryEphemeralKey: [UInt8]?
    private var cipher: CoAPSessionCipher?
    private var triedKeyLog = false
    /// The PDUs of the last request body, by TID: one request is in flight per session
    /// (aiohomekit `EncryptionContext.post_bytes` holds a lock around it).
    private var requestBatch: [UInt8: HAPPDURequest] = [:]
    private var requestBatchPacket: PacketInfo?
    /// The packet carrying the first block of the response being received.
    private var responseStart: PacketInfo?
    private var frames: [HAPDirection: FrameStatistics] = [:]
    private var decrypted: Set<HAPDirection> = []
    private(set) var messageCount = 0
    private(set) var retransmissionCount = 0
    private var pduCount = 0

    private struct PendingKey: Hashable {
        let requester: HAPDirection
        let token: CoAPToken
    }

    private struct PendingRequest {
        let path: String
        let code: CoAPCode
        let packet: PacketInfo
    }

    private struct BlockKey: Hashable {
        let direction: HAPDirection
        let path: String
    }

    init(info: ConnectionInfo, deviceID: String?, packet: PacketInfo, context: AnalysisContext) {
        self.info = info
        self.deviceID = deviceID
        self.firstPacket = packet
        self.lastPacket = packet
        self.context = context
        blocks = BlockwiseAssembler(limits: BlockwiseLimits(
            maximumBodyLength: context.limits.maximumCoAPBlockwiseBody, maximumPendingTransfers: 2))
    }

    // MARK: Messages

    /// One datagram's payload, sent in `direction`.
    func process(_ bytes: [UInt8], _ direction: HAPDirection, packet: PacketInfo) {
        lastPacket = packet
        let message: CoAPMessage
        do {
            var cursor = ByteCursor(bytes.span.bytes, layer: .coap)
            message = try CoAPMessage(parsing: &cursor)
        } catch {
            problem(.undecodableCoAP, direction, "packet \(packet.number): not a CoAP message: \(error) (offset in the UDP payload)", packet)
            return
        }
        messageCount += 1
        switch recent[direction, default: RecentMessages()].check(type: message.type, messageID: message.messageID, bytes: bytes) {
        case .new: break
        case .retransmission:
            retransmissionCount += 1
            return
        case .differingCopy:
            // The receiver's CoAP layer takes it for a duplicate and never hands it on (RFC 7252
            // §4.5), so its payload is not what the peer acted on.
            retransmissionCount += 1
            sessionProblem(.retransmissionDiffers, direction, counter: nil,
                           "packet \(packet.number): \(message.type) \(message.code) message ID \(message.messageID) sent again with other bytes; the receiver treats it as a duplicate, so it is not decoded",
                           packet)
            return
        }
        if message.code.isRequest {
            request(message, direction, packet: packet)
        } else if message.code.isResponse {
            response(message, direction, packet: packet)
        }
        // Empty ACKs (a separate response follows) and RSTs carry nothing for HAP.
    }

    private func request(_ message: CoAPMessage, _ direction: HAPDirection, packet: PacketInfo) {
        let path = message.uriPath
        remember(PendingKey(requester: direction, token: message.token), PendingRequest(path: path, code: message.code, packet: packet), packet)
        let block1: CoAPBlockOption?
        do { block1 = try message.block1 } catch {
            problem(.undecodableCoAP, direction, "packet \(packet.number): \(error)", packet)
            return
        }
        guard let body = joined(message.payload, block: block1, key: BlockKey(direction: direction, path: path), packet: packet) else { return }
        // A Block2 follow-up (an empty POST asking for block n) carries no body of its own, and
        // an empty body on `/` holds no PDU.
        if body.isEmpty, path == "/" { return }
        switch (direction, message.code, path) {
        case (.controllerToAccessory, .post, "/1"): pairingBody(.pairSetup, direction, body, packet)
        case (.controllerToAccessory, .post, "/2"): pairingBody(.pairVerify, direction, body, packet)
        case (.controllerToAccessory, .post, "/"): requestBody(body, packet: packet)
        case (.accessoryToController, .put, "/"): eventBody(body, packet: packet)
        default: break
        }
    }

    private func response(_ message: CoAPMessage, _ direction: HAPDirection, packet: PacketInfo) {
        let key = PendingKey(requester: direction.reversed, token: message.token)
        guard let request = pending.removeValue(forKey: key) else {
            problem(.undecodableCoAP, direction,
                    "packet \(packet.number): \(message.code) with token \(message.token) answers no request seen", packet)
            return
        }
        pendingOrder.removeAll { $0 == key }
        guard message.code != .continue else { return }
        let block2: CoAPBlockOption?
        do { block2 = try message.block2 } catch {
            problem(.undecodableCoAP, direction, "packet \(packet.number): \(error)", packet)
            return
        }
        // The response time runs to its first block (ResponseTiming), the body is read at its last.
        if block2.map({ $0.number == 0 }) ?? true { responseStart = packet }
        guard let body = joined(message.payload, block: block2, key: BlockKey(direction: direction, path: request.path), packet: packet)
        else { return }
        switch (direction, request.code, request.path) {
        case (.accessoryToController, .post, "/1"): pairingBody(.pairSetup, direction, body, packet)
        case (.accessoryToController, .post, "/2"): pairingBody(.pairVerify, direction, body, packet)
        case (.accessoryToController, .post, "/"):
            if message.code == .changed { responseBody(body, packet: packet, firstPacket: responseStart ?? packet) }
        default: break
        }
    }

    // MARK: Memory

    /// What the session holds that wire data makes it grow: block-wise bodies being joined,
    /// requests waiting for responses (with their paths), the de-duplication windows. The
    /// transport adds these up against `coap.held-bytes`.
    var heldByteCount: Int {
        let waiting = pending.values.reduce(0) { $0 + MemoryLayout<PendingKey>.stride + MemoryLayout<PendingRequest>.stride + $1.path.utf8.count }
        return blocks.heldByteCount + waiting + recent.values.reduce(0) { $0 + $1.heldByteCount }
    }

    /// Drops the block-wise bodies being joined: the transport's memory budget is spent.
    func dropBlockwiseBodies(_ packet: PacketInfo) {
        let dropped = blocks.discardAll()
        guard dropped > 0 else { return }
        problem(.undecodableCoAP, .accessoryToController,
                "packet \(packet.number): \(dropped) block-wise body(ies) being joined dropped to stay within the coap.held-bytes limit", packet)
    }

    /// A request waits for its response; the oldest is forgotten beyond the bound.
    private func remember(_ key: PendingKey, _ request: PendingRequest, _ packet: PacketInfo) {
        if pending.updateValue(request, forKey: key) == nil { pendingOrder.append(key) }
        if pendingOrder.count > context.limits.maximumCoAPPendingRequests {
            pending[pendingOrder.removeFirst()] = nil
            context.limitReached(.coapPendingRequests, "\(info): more CoAP requests waiting than the coap.pending-requests limit: the oldest is forgotten", packet)
        }
    }

    /// The whole body, when `payload` is one (no block option) or the last block of one.
    private func joined(_ payload: [UInt8], block: CoAPBlockOption?, key: BlockKey, packet: PacketInfo) -> [UInt8]? {
        guard let block else { return payload }
        switch blocks.add(block, payload: payload, key: key, offset: 0) {
        case .needsMore, .duplicate: return nil
        case .complete(let body): return body
        case .rejected(let error):
            if error.code == .limitExceeded {
                context.limitReached(.coapBlockwiseBody, "\(info): a block-wise body beyond the coap.blockwise-body limit: \(error)", packet)
            } else {
                problem(.undecodableCoAP, key.direction, "packet \(packet.number): block \(block.number) of \(key.path): \(error)", packet)
            }
            return nil
        }
    }

    // MARK: Pairing

    private func pairingBody(_ procedure: PairingProcedure, _ direction: HAPDirection, _ body: [UInt8], _ packet: PacketInfo) {
        let start = pairing.follow(procedure, direction: direction, body: body.span.bytes, packet: packet, connection: info, context: context)
        if procedure == .pairVerify, let exchange = pairing.exchange {
            controllerEphemeralKey = exchange.controllerEphemeralKey ?? controllerEphemeralKey
            accessoryEphemeralKey = exchange.accessoryEphemeralKey ?? accessoryEphemeralKey
        }
        guard let start else { return }
        var keys: [CoAPBodyStream: ChaCha20Poly1305.Key] = [:]
        keys[.request] = start.keys.controllerToAccessory
        keys[.response] = start.keys.accessoryToController
        if let controllerEphemeralKey {
            keys[.event] = CoAPSessionCipher.eventKey(keyLog: context.keyLog, controllerKey: controllerEphemeralKey, accessoryKey: accessoryEphemeralKey)
        }
        startSession(keys, trigger: start.trigger, source: start.source, missing: start.missingKeys, match: nil, packet: packet)
    }

    private func startSession(
        _ keys: [CoAPBodyStream: ChaCha20Poly1305.Key], trigger: SessionStartEvent.Trigger, source: KeySource?,
        missing: SessionStartEvent.UndecryptableReason?, match: SessionStartEvent.KeyLogMatch?, packet: PacketInfo
    ) {
        let session = CoAPSessionCipher(keys: keys, maximumDrift: context.limits.maximumCoAPCounterDrift)
        cipher = session
        requestBatch = [:]
        let decryptable = Set(session.decryptable.map(\.direction))
        var revealed: [HAPDirection: String]?
        if context.configuration.revealsSessionKeys {
            revealed = [:]
            for stream in [CoAPBodyStream.request, .response] { revealed?[stream.direction] = keys[stream].map { Hex.encode($0.secret.revealedBytes()) } }
        }
        var reason = missing
        if reason == nil, decryptable.count == 1, let only = decryptable.first { reason = .onlyOneDirection(only) }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: trigger, decryptable: decryptable, keySource: source,
            undecryptableBecause: keys.isEmpty ? (missing ?? .startedBeforeCapture) : reason, revealedKeys: revealed,
            keyLogMatch: match)), packet)
    }

    /// A body on `/` before any pair-verify of this connection: the key log's sessions for these
    /// endpoints (`SESSION_ENDPOINTS` first) are tried on it, from counter 0 within the drift bound.
    private func joinFromKeyLog(_ sealed: [UInt8], _ stream: CoAPBodyStream, packet: PacketInfo) {
        guard cipher == nil, !triedKeyLog else { return }
        triedKeyLog = true
        let candidates = context.keyLogSessions.candidates(between: info.controller, info.accessory)
        for candidate in candidates {
            var keys: [CoAPBodyStream: ChaCha20Poly1305.Key] = [:]
            keys[.request] = candidate.keys.controllerToAccessory
            keys[.response] = candidate.keys.accessoryToController
            keys[.event] = CoAPSessionCipher.eventKey(keyLog: context.keyLog, controllerKey: candidate.id, accessoryKey: nil)
            var trial = CoAPSessionCipher(keys: keys, maximumDrift: context.limits.maximumCoAPCounterDrift)
            guard case .opened = trial.open(sealed, stream) else { continue }
            context.keyLogSessions.claim(candidate.id)
            startSession(keys, trigger: .beforeCapture, source: candidate.source, missing: nil,
                         match: candidate.endpoints != nil ? .sessionEndpoints : .keyTrial, packet: packet)
            return
        }
        startSession([:], trigger: .beforeCapture, source: nil,
                     missing: candidates.isEmpty ? .startedBeforeCapture : .noKeyLogSessionOpens(tried: candidates.count), match: nil, packet: packet)
    }

    // MARK: Sealed bodies

    /// Opens a body of `stream`: the PDUs' plaintext, or nil after reporting why not.
    private func open(_ sealed: [UInt8], _ stream: CoAPBodyStream, packet: PacketInfo) -> [UInt8]? {
        joinFromKeyLog(sealed, stream, packet: packet)
        let direction = stream.direction
        var statistics = frames[direction, default: FrameStatistics()]
        statistics.frames += 1
        statistics.ciphertextBytes += sealed.count
        statistics.largestFrame = max(statistics.largestFrame, sealed.count)
        if statistics.firstFrameTime == nil { statistics.firstFrameTime = packet.timestamp }
        statistics.lastFrameTime = packet.timestamp
        defer { frames[direction] = statistics }
        guard var session = cipher else { return nil }
        defer { cipher = session }
        switch session.open(sealed, stream) {
        case .noKey:
            return nil
        case .opened(let plaintext, let counter, let expected):
            statistics.plaintextBytes += plaintext.count
            decrypted.insert(direction)
            if counter != expected {
                let drift = SessionProblemEvent.CounterDrift(
                    expected: expected, opened: counter, receiverRecovers: CoAPSessionCipher.controllerRecovers(stream, expected: expected, opened: counter))
                sessionProblem(counter > expected ? .counterSkipped : .counterReused, direction, counter: counter, drift: drift,
                               "packet \(packet.number): the \(stream.rawValue) body opened with counter \(counter) where \(expected) was due; the \(stream.rawValue) counter goes on from \(counter &+ 1)",
                               packet)
            }
            return plaintext
        case .failed(let expected, let tried):
            if Self.parsesAsPDUs(sealed, stream) {
                sessionProblem(.plaintextAfterEncryption, direction, counter: nil,
                               "packet \(packet.number): a \(sealed.count)-byte \(stream.rawValue) body in plaintext after the session was secured (it parses as HAP PDUs and opens under no counter)",
                               packet)
                return sealed
            }
            sessionProblem(.authenticationFailed, direction, counter: expected,
                           "packet \(packet.number): the \(sealed.count)-byte \(stream.rawValue) body opens under none of \(tried) counters around \(expected) (the coap.counter-search limit is \(session.maximumDrift))",
                           packet)
            context.limitReached(.coapCounterSearch, "\(info): a \(stream.rawValue) body opened under no counter within the coap.counter-search limit", packet)
            return nil
        }
    }

    private static func parsesAsPDUs(_ bytes: [UInt8], _ stream: CoAPBodyStream) -> Bool {
        var cursor = ByteCursor(bytes.span.bytes, layer: .hapPDU)
        if stream == .event { return (try? HAPCoAPEvent(parsing: &cursor)) != nil }
        return (try? HAPPDU.sequence(parsing: &cursor)).map { !$0.isEmpty } ?? false
    }

    private func requestBody(_ sealed: [UInt8], packet: PacketInfo) {
        guard let plaintext = open(sealed, .request, packet: packet) else {
            requestBatch = [:]
            return
        }
        emitDecryptedData(plaintext, .controllerToAccessory, packet)
        requestBatch = [:]
        requestBatchPacket = packet
        guard let pdus = pdus(plaintext, .controllerToAccessory, packet: packet) else { return }
        for case .request(let request) in pdus {
            requestBatch[request.transactionID] = request
        }
    }

    private func responseBody(_ sealed: [UInt8], packet: PacketInfo, firstPacket: PacketInfo) {
        guard let plaintext = open(sealed, .response, packet: packet) else { return }
        emitDecryptedData(plaintext, .accessoryToController, packet)
        guard let pdus = pdus(plaintext, .accessoryToController, packet: packet) else { return }
        let timing = requestBatchPacket.map {
            ResponseTiming(request: $0, response: firstPacket, controllerTimeoutSeconds: CoAPSessionCipher.controllerRequestTimeoutSeconds)
        }
        for case .response(let response) in pdus {
            guard let request = requestBatch.removeValue(forKey: response.transactionID) else {
                problem(.undecodableCoAP, .accessoryToController,
                        "packet \(packet.number): a PDU response with TID \(response.transactionID) answers no request of the last request body", packet)
                continue
            }
            attributes.response(response, to: request, requestPacket: requestBatchPacket, timing: timing, packet: packet)
        }
    }

    private func eventBody(_ sealed: [UInt8], packet: PacketInfo) {
        guard let plaintext = open(sealed, .event, packet: packet) else { return }
        emitDecryptedData(plaintext, .accessoryToController, packet)
        var cursor = ByteCursor(plaintext.span.bytes, layer: .hapPDU)
        do {
            let event = try HAPCoAPEvent(parsing: &cursor)
            pduCount += event.records.count
            for record in event.records { attributes.event(record, packet: packet) }
        } catch {
            problem(.undecodableCoAP, .accessoryToController, "packet \(packet.number): event body: \(error) (offset in the decrypted body)", packet)
        }
    }

    private func pdus(_ plaintext: [UInt8], _ direction: HAPDirection, packet: PacketInfo) -> [HAPPDU]? {
        var cursor = ByteCursor(plaintext.span.bytes, layer: .hapPDU)
        do {
            let pdus = try HAPPDU.sequence(parsing: &cursor)
            pduCount += pdus.count
            return pdus
        } catch {
            problem(.undecodableCoAP, direction, "packet \(packet.number): PDU body: \(error) (offset in the decrypted body)", packet)
            return nil
        }
    }

    private lazy var attributes = CoAPAttributes(context: context, info: info, deviceID: deviceID)

    // MARK: Reporting

    private func emitDecryptedData(_ plaintext: [UInt8], _ direction: HAPDirection, _ packet: PacketInfo) {
        guard context.configuration.emitsDecryptedData else { return }
        context.emit(.decryptedData(DecryptedDataEvent(connection: info, direction: direction, plaintext: plaintext)), packet)
    }

    private func problem(_ kind: CaptureProblem.Kind, _ direction: HAPDirection, _ message: String, _ packet: PacketInfo) {
        context.emit(.problem(CaptureProblem(kind, "\(info): \(message)", connection: info, direction: direction)), packet)
    }

    private func sessionProblem(
        _ kind: SessionProblemEvent.Kind, _ direction: HAPDirection, counter: UInt64?, drift: SessionProblemEvent.CounterDrift? = nil,
        _ message: String, _ packet: PacketInfo
    ) {
        context.emit(.sessionProblem(SessionProblemEvent(
            connection: info, direction: direction, kind: kind, frameCounter: counter, counterDrift: drift, message: message)), packet)
    }

    /// Reports what is still open and the connection's end.
    func close(_ reason: ConnectionCloseReason, at packet: PacketInfo?) {
        pairing.finish(at: packet, connection: info, context: context)
        for error in blocks.finish(offset: 0) {
            problem(.undecodableCoAP, .accessoryToController, "a block-wise body was cut off: \(error)", lastPacket)
        }
        context.emit(.connectionClosed(ConnectionSummary(
            connection: info, deviceID: deviceID, reason: reason, handshakeSeen: true, firstPacket: firstPacket, lastPacket: lastPacket,
            tcp: [:], frames: cipher == nil ? [:] : frames, encrypted: cipher != nil, decrypted: decrypted,
            carried: .coap(ConnectionSummary.CoAPCounters(messages: messageCount, retransmissions: retransmissionCount, pdus: pduCount)))),
                     packet ?? lastPacket)
    }
}

extension CaptureProblem.Kind {
    /// A CoAP message, block-wise body or HAP PDU of HAP over CoAP that could not be read.
    static let undecodableCoAP = CaptureProblem.Kind(rawValue: "undecodable-coap")
}
