import HAPCrypto
import HAPJSON
import HTTP1
import Packets
import TCPReassembly
import WireParsing

/// One HAP connection: plaintext HTTP, the pairing procedures, the switch to encrypted frames
/// right after a successful pair-verify M4 (or transient pair-setup M4), and the HTTP inside the
/// frames when the key log opens them. Turns all of it into events.
final class HAPConnection {
    let tcp: TCPConnection
    let info: ConnectionInfo
    /// The TCP direction in which the controller sends.
    private let controllerSends: TCPDirection
    private let context: AnalysisContext
    private(set) var deviceID: String?
    private let sides: [DirectionState]
    private var pairing = PairingTracker()
    private var requests = RequestQueue()
    private var preparedWrite: (pid: UInt64, expires: Timestamp)?
    private var encryptionStarted = false
    private var httpMessageCount = 0

    /// What one direction is doing. A class so that the frame decryptor and the HTTP parser of the
    /// same direction can be used together without overlapping access to one value.
    private final class DirectionState {
        let direction: HAPDirection
        /// Plaintext HTTP before encryption; the HTTP inside the frames after it.
        var parser: HTTPStreamParser
        /// Packets of the parser's stream (TCP offsets before encryption, plaintext offsets after).
        var marks = StreamPacketMap()
        /// Offset of the next TCP byte of this direction.
        var tcpOffset = 0
        var isEncrypted = false
        /// The stream offset at which this direction's frames begin, when encryption started in
        /// the middle of a piece being parsed.
        var encryptionStartOffset: Int?
        var decryptor: HAPFrameDecryptor?
        var scanner: FrameScanner?
        var frames = FrameStatistics()
        var reportedOversize = false
        /// Set while a stray plaintext message is parsed in an encrypted direction.
        var parsingStrayPlaintext = false

        init(_ direction: HAPDirection, limits: HTTPLimits) {
            self.direction = direction
            self.parser = HTTPStreamParser(limits: limits)
        }

        /// Moves the parser out, leaving an empty one in its place, so that the caller holds
        /// the only reference to its buffers: a copy would make the parser's next append copy
        /// the whole message held so far.
        func takeParser() -> HTTPStreamParser {
            var parser = HTTPStreamParser(limits: self.parser.limits)
            swap(&parser, &self.parser)
            return parser
        }
    }

    init(tcp: TCPConnection, controllerSends: TCPDirection, recognisedBy: ConnectionEvent.Recognition, context: AnalysisContext, packet: PacketInfo) {
        self.tcp = tcp
        self.controllerSends = controllerSends
        self.context = context
        let controller = tcp.source(of: controllerSends)
        let accessory = tcp.source(of: controllerSends.reversed)
        info = ConnectionInfo(id: tcp.id, controller: controller, accessory: accessory)
        deviceID = context.discovery.deviceIDs[accessory]
        sides = [
            DirectionState(.controllerToAccessory, limits: context.configuration.limits.http),
            DirectionState(.accessoryToController, limits: context.configuration.limits.http),
        ]
        context.emit(.connectionOpened(ConnectionEvent(
            connection: info, deviceID: deviceID, handshakeSeen: tcp.handshakeSeen, recognisedBy: recognisedBy)), packet)
    }

    /// The capture began inside an encrypted session: neither the keys' exchange nor the frame
    /// boundaries can be recovered, so the session is only counted.
    func startedEncryptedBeforeCapture(packet: PacketInfo) {
        encryptionStarted = true
        for side in sides {
            side.isEncrypted = true
            var scanner = FrameScanner()
            scanner.loseSync()
            side.scanner = scanner
        }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: .beforeCapture, decryptable: [], keySource: nil,
            reason: "the session was encrypted before the capture started, so its pair-verify (and keys) are not in the capture",
            revealedKeys: nil)), packet)
    }

    private func side(_ direction: HAPDirection) -> DirectionState {
        direction == .controllerToAccessory ? sides[0] : sides[1]
    }

    private func hapDirection(_ direction: TCPDirection) -> HAPDirection {
        direction == controllerSends ? .controllerToAccessory : .accessoryToController
    }

    // MARK: Bytes in

    func receive(_ bytes: UnsafeRawBufferPointer, direction tcpDirection: TCPDirection, packet: PacketInfo) {
        let side = side(hapDirection(tcpDirection))
        let chunkStart = side.tcpOffset
        side.tcpOffset += bytes.count
        guard !side.isEncrypted else {
            receiveEncrypted(bytes, side: side, packet: packet)
            return
        }
        side.marks.mark(chunkStart, packet)
        var parser = side.takeParser()
        feed(&parser, side: side, packet: packet, encrypted: false) { parser, handle in
            try parser.feed(bytes) { event in
                if side.encryptionStartOffset == nil { handle(event) }
            }
        }
        guard let switchedAt = side.encryptionStartOffset else {
            side.parser = parser
            side.marks.forget(before: parser.streamOffset)
            return
        }
        // Encryption began inside this piece: what follows the pair-verify M4 is frames.
        side.encryptionStartOffset = nil
        let consumed = min(max(switchedAt - chunkStart, 0), bytes.count)
        if consumed < bytes.count {
            receiveEncrypted(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), side: side, packet: packet)
        }
    }

    /// Feeds a parser, turning its messages and discards into events and recovering from errors
    /// as the parser documents: report, then `resume` until it returns.
    private func feed(
        _ parser: inout HTTPStreamParser, side: DirectionState, packet: PacketInfo, encrypted: Bool,
        _ body: (inout HTTPStreamParser, (HTTPStreamEvent) -> Void) throws -> Void
    ) {
        // A local function, not a stored closure, so that passing it costs no allocation.
        func handle(_ event: HTTPStreamEvent) {
            switch event {
            case .message(let message):
                handleMessage(message, side: side, encrypted: encrypted && !side.parsingStrayPlaintext, packet: packet)
            case .discarded(let discarded):
                reportDiscarded(discarded, side: side, packet: packet)
            }
        }
        do {
            try body(&parser, handle)
        } catch {
            if let error = error as? DecodeError, error.code == .limitExceeded {
                context.limitReached("http", "\(info) \(side.direction): an HTTP limit was reached: \(error)", packet)
            }
            reportHTTPError("\(error)", side: side, packet: packet)
            // Each resume parses held bytes onward, so this ends; the bound guards against a parser bug.
            for _ in 0..<1024 {
                do {
                    try parser.resume(handle)
                    break
                } catch {
                    reportHTTPError(error.description, side: side, packet: packet)
                }
            }
        }
    }

    func gap(_ byteCount: UInt64, direction tcpDirection: TCPDirection, packet: PacketInfo) {
        let side = side(hapDirection(tcpDirection))
        side.tcpOffset += Int(clamping: byteCount)
        context.emit(.problem(CaptureProblem(.streamGap,
            "\(info) \(side.direction): \(byteCount) bytes missing from the capture; analysis resumes after them",
            connection: info, direction: side.direction)), packet)
        if side.isEncrypted {
            if var decryptor = side.decryptor.take() {
                do {
                    if try decryptor.skipGap(byteCount: Int(clamping: byteCount)) != nil { skipInner(side: side, packet: packet) }
                    side.decryptor = decryptor
                } catch {
                    sessionProblem(.gap, side: side, counter: error.counter,
                                   "\(byteCount) bytes missing from the capture hide where the next frame starts; the rest of this direction cannot be decrypted", packet)
                }
            }
            side.scanner?.loseSync()
            return
        }
        var parser = side.takeParser()
        feed(&parser, side: side, packet: packet, encrypted: false) { parser, handle in
            try parser.skip(byteCount: byteCount, handle)
        }
        side.parser = parser
    }

    private func skipInner(side: DirectionState, packet: PacketInfo) {
        var parser = side.takeParser()
        feed(&parser, side: side, packet: packet, encrypted: true) { parser, handle in
            try parser.skip(byteCount: 1, handle)
        }
        side.parser = parser
    }

    // MARK: Encrypted frames

    private func tcpDirection(_ direction: HAPDirection) -> TCPDirection {
        direction == .controllerToAccessory ? controllerSends : controllerSends.reversed
    }

    /// Switches both directions to frames. `switchOffsets` are the TCP stream offsets where each
    /// direction's frames begin.
    private func startSession(_ start: SessionStart, packet: PacketInfo, switchOffsets: [HAPDirection: Int]) {
        encryptionStarted = true
        var decryptable: Set<HAPDirection> = []
        var revealed: [HAPDirection: String]?
        for side in sides {
            side.isEncrypted = true
            side.parser = HTTPStreamParser(limits: context.configuration.limits.http)
            side.marks = StreamPacketMap()
            let key = side.direction == .controllerToAccessory ? start.keys.controllerToAccessory : start.keys.accessoryToController
            if let key {
                if context.configuration.revealsSessionKeys {
                    revealed = (revealed ?? [:]).merging([side.direction: Hex.encode(key.secret.revealedBytes())]) { $1 }
                }
                let configuration = HAPFrameDecryptor.Configuration(maximumFrameLength: context.configuration.limits.maximumFrameLength)
                side.decryptor = HAPFrameDecryptor(key: key, configuration: configuration)
                decryptable.insert(side.direction)
            } else {
                side.scanner = FrameScanner()
            }
        }
        var reason = start.reason
        if reason == nil, decryptable.count == 1 {
            reason = "the key log holds only the \(decryptable.first!) key"
        }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: start.trigger, decryptable: decryptable, keySource: start.source, reason: reason,
            revealedKeys: revealed)), packet)
        if decryptable.count == 2, let export = context.export {
            var offsets: [TCPDirection: Int] = [:]
            for (direction, offset) in switchOffsets { offsets[tcpDirection(direction)] = offset }
            export.sessionStarted(tcp, switchOffsets: offsets)
        }
    }

    private func receiveEncrypted(_ bytes: UnsafeRawBufferPointer, side: DirectionState, packet: PacketInfo) {
        guard !bytes.isEmpty else { return }
        if Self.looksLikePlaintextHTTP(bytes), side.decryptor?.bufferedByteCount ?? 0 == 0, side.scanner?.lostSync != true {
            parseStrayPlaintext(bytes, side: side, packet: packet)
            return
        }
        // Taken out, not copied, so that its plaintext buffer is reused rather than copied.
        if var decryptor = side.decryptor.take() {
            do throws(HAPFrameDecryptionError) {
                try decryptor.decrypt(bytes) { frame in self.deliver(frame, side: side, packet: packet) }
                side.decryptor = decryptor
            } catch {
                reportDecryptionFailure(error, side: side, packet: packet)
            }
        } else if var scanner = side.scanner {
            scanner.scan(bytes) { length in self.countFrame(length: length, side: side, packet: packet) }
            side.scanner = scanner
            side.frames.ciphertextBytes += bytes.count
            if side.frames.firstFrameTime == nil { side.frames.firstFrameTime = packet.timestamp }
            side.frames.lastFrameTime = packet.timestamp
        }
    }

    private func deliver(_ frame: HAPDecryptedFrame, side: DirectionState, packet: PacketInfo) {
        countFrame(length: frame.declaredLength, side: side, packet: packet, counter: frame.counter)
        side.frames.ciphertextBytes += frame.byteCount
        side.frames.plaintextBytes += frame.plaintext.count
        context.export?.plaintext(frame.plaintext, connection: tcp, direction: tcpDirection(side.direction))
        side.marks.mark(side.parser.streamOffset, packet)
        var parser = side.takeParser()
        feed(&parser, side: side, packet: packet, encrypted: true) { parser, handle in
            try parser.feed(frame.plaintext, handle)
        }
        side.parser = parser
        side.marks.forget(before: parser.streamOffset)
    }

    private func countFrame(length: Int, side: DirectionState, packet: PacketInfo, counter: UInt64? = nil) {
        side.frames.frames += 1
        side.frames.largestFrame = max(side.frames.largestFrame, length)
        if side.frames.firstFrameTime == nil { side.frames.firstFrameTime = packet.timestamp }
        side.frames.lastFrameTime = packet.timestamp
        guard length > HAPFrame.maximumLength else { return }
        side.frames.oversizeFrames += 1
        if !side.reportedOversize {
            side.reportedOversize = true
            sessionProblem(.oversizeFrame, side: side, counter: counter ?? UInt64(side.frames.frames - 1),
                           "frame of \(length) bytes exceeds HAP's 1024-byte limit", packet)
        }
    }

    private func reportDecryptionFailure(_ error: HAPFrameDecryptionError, side: DirectionState, packet: PacketInfo) {
        let kind: SessionProblemEvent.Kind
        switch error.kind {
        case .authenticationFailed:
            if let other = error.authenticatingCounter {
                kind = other > error.counter ? .counterSkipped : .counterReused
            } else {
                kind = error.counter == 0 ? .keyDoesNotFit : .authenticationFailed
            }
        case .frameTooLong:
            kind = .frameBoundaryLost
            context.limitReached("frame.length", "\(info) \(side.direction): a frame longer than the frame.length limit", packet)
        case .frameBoundaryLost:
            kind = .frameBoundaryLost
        }
        let message = kind == .keyDoesNotFit
            ? "the key-log key does not decrypt the first frame of this direction: it is not this session's key"
            : error.description
        sessionProblem(kind, side: side, counter: error.counter, message, packet)
    }

    private func sessionProblem(_ kind: SessionProblemEvent.Kind, side: DirectionState, counter: UInt64?, _ message: String, _ packet: PacketInfo) {
        context.emit(.sessionProblem(SessionProblemEvent(
            connection: info, direction: side.direction, kind: kind, frameCounter: counter, message: message)), packet)
    }

    /// Plaintext HTTP where frames are due: a peer that forgot, or never meant, to encrypt.
    private func parseStrayPlaintext(_ bytes: UnsafeRawBufferPointer, side: DirectionState, packet: PacketInfo) {
        sessionProblem(.plaintextAfterEncryption, side: side, counter: nil,
                       "plaintext HTTP (\"\(Self.firstLine(bytes))\") after the session switched to encrypted frames", packet)
        context.export?.plaintext(bytes, connection: tcp, direction: tcpDirection(side.direction))
        var parser = HTTPStreamParser(limits: context.configuration.limits.http)
        side.parsingStrayPlaintext = true
        let marks = side.marks
        side.marks = StreamPacketMap()
        side.marks.mark(0, packet)
        feed(&parser, side: side, packet: packet, encrypted: false) { parser, handle in
            try parser.feed(bytes, handle)
            try parser.finish(handle)
        }
        side.marks = marks
        side.parsingStrayPlaintext = false
    }

    private static func looksLikePlaintextHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // A frame's length field is little-endian and at most 0x0400 for any conforming frame, so
        // its second byte is a control character; every plaintext start has a letter or `/` there.
        guard bytes.count >= 2, bytes[1] >= 0x20 else { return false }
        for prefix in ["HTTP/1.", "EVENT/1.", "GET /", "PUT /", "POST /", "DELETE /"] {
            let utf8 = prefix.utf8
            if bytes.count >= utf8.count, zip(bytes, utf8).allSatisfy({ $0 == $1 }) { return true }
        }
        return false
    }

    private static func firstLine(_ bytes: UnsafeRawBufferPointer) -> String {
        let line = bytes.prefix(80).prefix { $0 != 0x0D && $0 != 0x0A }
        return String(decoding: line, as: UTF8.self)
    }

    // MARK: Messages

    private func handleMessage(_ message: HTTPMessage, side: DirectionState, encrypted: Bool, packet: PacketInfo) {
        httpMessageCount += 1
        let first = side.marks.packet(at: message.startOffset) ?? packet
        let last = side.marks.packet(at: max(message.endOffset - 1, message.startOffset)) ?? packet
        var answered: PendingRequest?
        if message.kind == .response { answered = requests.popFirst() }
        context.emit(.httpMessage(HTTPMessageEvent(
            connection: info, direction: side.direction, message: message, encrypted: encrypted,
            firstPacket: first, lastPacket: last,
            request: answered.map { .init(method: $0.method, target: $0.target, packet: $0.packet) })), last)

        switch message.kind {
        case .request:
            handleRequest(message, packet: last)
        case .response:
            if let answered { handleResponse(message, to: answered, packet: last) }
        case .event:
            handleEvent(message, packet: last)
        }
    }

    private func handleRequest(_ message: HTTPMessage, packet: PacketInfo) {
        guard let line = message.requestLine else { return }
        let target = message.hapRequestTarget
        var request = PendingRequest(method: line.method.description, target: line.target, endpoint: target?.endpoint, packet: packet)
        switch target?.endpoint {
        case .pairSetup?, .pairVerify?, .pairings?:
            pairingMessage(message, endpoint: target?.endpoint, direction: .controllerToAccessory, packet: packet)
        case .characteristics? where request.method == "PUT":
            request.writes = decodeBody(message, packet: packet, as: CharacteristicWriteRequest.self)
            if let writes = request.writes, let pid = writes.pid, let prepared = preparedWrite, prepared.pid == pid,
               packet.timestamp <= prepared.expires {
                request.timedWrite = true
            }
        case .characteristics?:
            request.readQuery = target?.characteristicQuery
        case .prepare?:
            if let prepare = decodeBody(message, packet: packet, as: PrepareRequest.self) {
                // HAP: a timed write must follow its /prepare within `ttl` milliseconds.
                let seconds = Int64(clamping: prepare.timeToLive / 1000 + 1)
                preparedWrite = (prepare.pid, Timestamp(seconds: packet.timestamp.seconds &+ seconds, nanoseconds: packet.timestamp.nanoseconds))
            }
        default:
            break
        }
        if requests.count >= context.configuration.limits.maximumPendingRequests {
            _ = requests.popFirst()
            context.limitReached("http.pending-requests", "\(info): more requests waiting for responses than the http.pending-requests limit: the oldest is forgotten", packet)
        }
        requests.append(request)
    }

    private func handleResponse(_ message: HTTPMessage, to request: PendingRequest, packet: PacketInfo) {
        switch request.endpoint {
        case .pairSetup?, .pairVerify?, .pairings?:
            pairingMessage(message, endpoint: request.endpoint, direction: .accessoryToController, packet: packet)
        case .accessories? where message.status == .ok:
            accessoryDatabase(message, packet: packet)
        case .characteristics? where request.method == "PUT":
            writeResults(message, for: request, packet: packet)
        case .characteristics? where message.status == .ok || message.status == .multiStatus:
            if let response = decodeBody(message, packet: packet, as: CharacteristicReadResponse.self) {
                let database = database
                for entry in response.entries {
                    activity(.read, entry.id, value: entry.value, status: entry.status, packet: packet, database: database)
                }
            }
        default:
            break
        }
    }

    private func handleEvent(_ message: HTTPMessage, packet: PacketInfo) {
        guard let event = decodeBody(message, packet: packet, as: CharacteristicEvent.self) else { return }
        let database = database
        for entry in event.entries {
            activity(.event, entry.id, value: entry.value, status: entry.status, packet: packet, database: database)
        }
    }

    private func pairingMessage(_ message: HTTPMessage, endpoint: HAPRequestTarget.Endpoint?, direction: HAPDirection, packet: PacketInfo) {
        let procedure: PairingProcedure
        switch endpoint {
        case .pairSetup?: procedure = .pairSetup
        case .pairVerify?: procedure = .pairVerify
        default: procedure = .pairings
        }
        guard !message.body.isEmpty else { return }
        let start = pairing.handle(procedure, direction: direction, message: message, packet: packet, connection: info, context: context)
        if let id = pairing.accessoryID, deviceID == nil { deviceID = id }
        if let start, !encryptionStarted {
            // The message that completes the procedure is the last plaintext in its direction;
            // the other direction's next byte is its first frame.
            let offsets = [direction: message.endOffset, direction.reversed: side(direction.reversed).tcpOffset]
            startSession(start, packet: packet, switchOffsets: offsets)
            side(direction).encryptionStartOffset = message.endOffset
        }
    }

    // MARK: The accessory database and characteristics

    private var databaseKey: String { deviceID ?? info.accessory.description }

    private func accessoryDatabase(_ message: HTTPMessage, packet: PacketInfo) {
        let key = databaseKey
        // Controllers fetch the database on every connection; an unchanged body is the database
        // already known, so it is reported without being parsed and compared again.
        if let known = context.databases[key], known.body.elementsEqual(message.body) {
            context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
                connection: info, deviceID: deviceID, database: known.database, error: nil,
                diff: .unchanged, bodyByteCount: message.body.count)), packet)
            return
        }
        var database: AccessoryDatabase?
        var failure: DecodeError?
        do {
            var cursor = ByteCursor(message.bodySpan, layer: .json)
            database = try AccessoryDatabase(parsing: &cursor, limits: context.configuration.limits.json)
        } catch {
            failure = error
            if error.code == .limitExceeded {
                context.limitReached("json", "\(info): a JSON limit was reached in /accessories: \(error)", packet)
            }
        }
        let previous = context.databases[key]?.database
        if let database { context.databases[key] = (database, Array(message.body)) }
        context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
            connection: info, deviceID: deviceID, database: database, error: failure,
            diff: database.flatMap { new in previous.map { AccessoryDatabaseDiff(from: $0, to: new) } },
            bodyByteCount: message.body.count)), packet)
    }

    private func writeResults(_ message: HTTPMessage, for request: PendingRequest, packet: PacketInfo) {
        guard let writes = request.writes else { return }
        var statuses: [CharacteristicID: HAPStatus] = [:]
        if message.status == .multiStatus, let response = decodeBody(message, packet: packet, as: CharacteristicWriteResponse.self) {
            for entry in response.entries { statuses[entry.id] = entry.status }
        }
        let failedWhole = ![HTTPStatus.noContent, .multiStatus, .ok].contains(message.status)
        let database = database
        for entry in writes.entries {
            let status = failedWhole ? HAPStatus.unableToCommunicate : statuses[entry.id]
            if entry.value != nil {
                activity(.write, entry.id, value: entry.value, status: status, packet: packet, database: database, request: request)
            }
            if let events = entry.eventsEnabled {
                activity(events ? .subscribe : .unsubscribe, entry.id, value: nil, status: status, packet: packet, database: database, request: request)
            }
        }
    }

    private func activity(
        _ kind: CharacteristicActivity.Kind, _ id: CharacteristicID, value: JSONValue?, status: HAPStatus?,
        packet: PacketInfo, database: AccessoryDatabase?, request: PendingRequest? = nil, answered: Bool = true
    ) {
        let characteristic = database?.characteristic(id)
        let interpreted = value.map { json in characteristic?.interpret(json) ?? InterpretedValue(decoding: json, as: nil) }
        context.emit(.characteristic(CharacteristicActivity(
            connection: info, deviceID: deviceID, kind: kind, id: id, type: characteristic?.type,
            name: characteristic?.name, unit: characteristic?.unit, format: characteristic?.format,
            value: interpreted,
            status: status.flatMap { $0 == .success ? nil : $0 },
            timedWrite: request?.timedWrite ?? false, requestPacket: request?.packet, answered: answered)), packet)
    }

    /// The accessory database this connection's characteristics are typed against.
    private var database: AccessoryDatabase? {
        context.databases[databaseKey]?.database
    }

    /// Decodes a JSON body in place, reporting a failure as a problem naming the packet.
    private func decodeBody<Body: HAPJSONBody>(_ message: HTTPMessage, packet: PacketInfo, as _: Body.Type) -> Body? {
        guard !message.body.isEmpty else { return nil }
        do {
            var cursor = ByteCursor(message.bodySpan, layer: .json)
            return try Body(parsing: &cursor, limits: context.configuration.limits.json)
        } catch {
            if error.code == .limitExceeded {
                context.limitReached("json", "\(info): a JSON limit was reached: \(error)", packet)
            }
            context.emit(.problem(CaptureProblem(.undecodableBody, "\(info): body of \(Self.startLine(message)) is not valid HAP JSON: \(error)",
                                                 connection: info, direction: message.kind == .request ? .controllerToAccessory : .accessoryToController)), packet)
            return nil
        }
    }

    private static func startLine(_ message: HTTPMessage) -> String {
        if let line = message.requestLine { return "\(line.method) \(line.target)" }
        return message.statusLine.map { "\($0.version) \($0.status)" } ?? "message"
    }

    private func reportDiscarded(_ discarded: HTTPDiscardedBytes, side: DirectionState, packet: PacketInfo) {
        guard discarded.reason != .emptyLines else { return }
        context.emit(.problem(CaptureProblem(.undecodableHTTP,
            "\(info) \(side.direction): \(discarded.range.count) bytes at stream offset \(discarded.range.lowerBound) skipped (\(discarded.reason))",
            connection: info, direction: side.direction)), packet)
    }

    private func reportHTTPError(_ error: String, side: DirectionState, packet: PacketInfo) {
        context.emit(.problem(CaptureProblem(.undecodableHTTP, "\(info) \(side.direction): \(error)", connection: info, direction: side.direction)), packet)
    }

    // MARK: Closing

    func close(reason: TCPCloseReason, packet: PacketInfo?) {
        let end = packet ?? tcp.lastPacket
        for side in sides where !side.isEncrypted || side.decryptor != nil {
            var parser = side.takeParser()
            feed(&parser, side: side, packet: end, encrypted: side.isEncrypted) { parser, handle in
                try parser.finish(handle)
            }
            side.parser = parser
        }
        pairing.finish(at: end, connection: info, context: context)
        context.export?.connectionClosed(tcp)
        let database = database
        while let unanswered = requests.popFirst() {
            for entry in unanswered.writes?.entries ?? [] where entry.value != nil {
                activity(.write, entry.id, value: entry.value, status: nil, packet: end, database: database, request: unanswered, answered: false)
            }
        }
        context.emit(.connectionClosed(ConnectionSummary(
            connection: info, deviceID: deviceID, reason: Self.describe(reason), handshakeSeen: tcp.handshakeSeen,
            firstPacket: tcp.firstPacket, lastPacket: tcp.lastPacket,
            tcp: [.controllerToAccessory: Self.counters(tcp.statistics(controllerSends)),
                  .accessoryToController: Self.counters(tcp.statistics(controllerSends.reversed))],
            frames: encryptionStarted ? [.controllerToAccessory: sides[0].frames, .accessoryToController: sides[1].frames] : [:],
            encrypted: encryptionStarted,
            decrypted: Set(sides.filter { $0.isEncrypted && $0.scanner == nil && $0.frames.plaintextBytes > 0 }.map(\.direction)),
            httpMessages: httpMessageCount)), end)
    }

    private static func describe(_ reason: TCPCloseReason) -> String {
        switch reason {
        case .fin: "closed (FIN)"
        case .reset: "reset (RST)"
        case .idleTimeout: "idle timeout"
        case .evicted: "dropped at the connection limit"
        case .captureEnded: "open at the end of the capture"
        case .portReused: "superseded by a new connection on the same ports"
        }
    }

    private static func counters(_ statistics: TCPDirectionStatistics) -> ConnectionSummary.TCPCounters {
        ConnectionSummary.TCPCounters(
            packets: statistics.packets, payloadBytes: statistics.payloadBytes, retransmissions: statistics.retransmissions,
            outOfOrderSegments: statistics.outOfOrderSegments, conflictingOverlaps: statistics.conflictingOverlaps,
            gaps: statistics.gaps, gapBytes: statistics.gapBytes, bytesDroppedByLimit: statistics.bytesDroppedByLimit)
    }
}

/// A request waiting for its response (HAP answers requests in order).
struct PendingRequest {
    let method: String
    let target: String
    let endpoint: HAPRequestTarget.Endpoint?
    let packet: PacketInfo
    var writes: CharacteristicWriteRequest?
    var readQuery: HAPCharacteristicQuery?
    var timedWrite = false
}

/// A first-in first-out queue that does not shift its elements on every removal.
struct RequestQueue {
    private var items: [PendingRequest] = []
    private var head = 0

    var count: Int { items.count - head }

    mutating func append(_ request: PendingRequest) { items.append(request) }

    mutating func popFirst() -> PendingRequest? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        }
        return items[head]
    }
}
