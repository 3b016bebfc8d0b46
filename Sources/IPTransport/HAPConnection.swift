import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import TCPReassembly
import TLV8
import WireParsing

/// One HAP-over-IP connection: plaintext HTTP and the pairing procedures, the switch to encrypted
/// frames right after a successful pair-verify M4 (or transient pair-setup M4), and the HTTP
/// inside the frames when the key log opens them; requests matched to their responses, and what
/// they say about the accessory's attributes. Turns all of it into events.
final class HAPConnection {
    private var tcp: TCPConnectionFacts
    let info: ConnectionInfo
    /// The TCP direction in which the controller sends.
    private let controllerSends: TCPDirection
    private let context: AnalysisContext
    private(set) var deviceID: String?
    private let sides: [Side]
    private var pairing = PairingFollower()
    private var requests: RequestLedger
    private let attributes: AttributeTracker
    private var notifications = NotificationMonitor()
    private var encryptionStarted = false
    private var httpMessageCount = 0
    /// A session the capture began inside, while its directions are being joined.
    private var joining: JoiningSession?
    /// Whether a direction's joiner holds packets, so that other connections' events wait.
    private var holdsEvents = false

    /// What one direction is doing: its HTTP, and once the session is encrypted, its frames.
    private final class Side {
        let direction: HAPDirection
        let http: HTTPChannel
        var frames: EncryptedChannel?
        /// Offset of the next TCP byte of this direction.
        var tcpOffset = 0
        /// The TCP stream offset at which this direction's frames begin, when encryption started
        /// in the middle of the piece being parsed.
        var encryptionStartOffset: Int?
        /// A direction joined mid-way, until its plaintext reaches the start of a message.
        var resynchronising: Resynchronisation?
        /// Bytes lost to the capture, a failed frame or unparsable HTTP: messages may be missing,
        /// so requests and responses can no longer be paired for timing. A flag per side rather
        /// than a set in the connection: the set's accesses were checked at run time for every
        /// message, a Bool's are proved exclusive at compile time.
        var lostData = false

        init(_ direction: HAPDirection, limits: HTTPLimits) {
            self.direction = direction
            http = HTTPChannel(direction, limits: limits)
        }
    }

    init(tcp: TCPConnectionFacts, controllerSends: TCPDirection, recognisedBy: ConnectionOpenedEvent.Recognition,
         deviceID: String?, context: AnalysisContext, packet: PacketInfo) {
        self.tcp = tcp
        self.controllerSends = controllerSends
        self.context = context
        info = ConnectionInfo(tcpConnection: tcp.id, controller: tcp.source(of: controllerSends), accessory: tcp.source(of: controllerSends.reversed))
        self.deviceID = deviceID
        sides = [Side(.controllerToAccessory, limits: context.limits.http), Side(.accessoryToController, limits: context.limits.http)]
        requests = RequestLedger(maximumPending: context.limits.maximumPendingRequests)
        attributes = AttributeTracker(context: context, connection: info)
        context.emit(.connectionOpened(ConnectionOpenedEvent(
            connection: info, deviceID: deviceID, handshakeSeen: tcp.progress.handshakeSeen, recognisedBy: recognisedBy)), packet)
    }

    /// The capture began inside an encrypted session: its frames are looked for with the keys of
    /// the key-log sessions that may be it (`preferred` first), or only counted when there are
    /// none.
    func startedEncryptedBeforeCapture(packet: PacketInfo, preferring preferred: [UInt8]? = nil) {
        encryptionStarted = true
        var candidates = context.keyLogSessions.candidates(between: info.controller, info.accessory)
        if let preferred, let index = candidates.firstIndex(where: { $0.id == preferred }) {
            candidates.insert(candidates.remove(at: index), at: 0)
        }
        guard !candidates.isEmpty else {
            for side in sides { side.frames = .startedBeforeCapture(side.direction) }
            context.emit(.sessionStarted(SessionStartEvent(
                connection: info, trigger: .beforeCapture, decryptable: [], keySource: nil,
                undecryptableBecause: .startedBeforeCapture)), packet)
            return
        }
        var owners: [HAPDirection: [Int]] = [:]
        for side in sides {
            owners[side.direction] = candidates.indices.filter { candidates[$0].keys[side.direction] != nil }
        }
        joining = JoiningSession(candidates: candidates, keyOwners: owners)
        for side in sides {
            let owned = owners[side.direction]!
            if owned.isEmpty {
                side.frames = .startedBeforeCapture(side.direction)
                markNotJoined(side.direction, .noKeyForDirection, packet: packet)
            } else {
                side.frames = .joining(side.direction, keys: owned.map { candidates[$0].keys[side.direction]! },
                                       counterLimit: context.limits.maximumCounterSearch, checkBudget: context.limits.maximumJoinChecks,
                                       maximumFrameLength: context.limits.maximumFrameLength)
            }
        }
    }

    /// A joined direction's plaintext before its first whole message.
    private struct Resynchronisation {
        let join: HAPFrameJoiner.Join
        var cutMessageBytes = 0
    }

    /// The key-log sessions a connection joined mid-way tries, and what its directions found.
    private struct JoiningSession {
        let candidates: [KeyLogSession]
        /// Per direction, the candidate each of its channel's keys comes from.
        let keyOwners: [HAPDirection: [Int]]
        var matched: Int?
        var failed: [HAPDirection: SessionJoinEvent.NotJoined] = [:]
        var sessionStartEmitted = false
        /// Join events waiting for the session start they must follow.
        var pendingEvents: [(SessionJoinEvent, PacketInfo)] = []
    }

    /// Whether every message of `direction` was read: nothing lost, and its frames (if any)
    /// still decrypting. Asked once the connection ends: while a frame's plaintext is handed on,
    /// its channel holds no decryptor.
    private func seenWholeAtClose(_ direction: HAPDirection) -> Bool {
        !side(direction).lostData && (side(direction).frames?.isDecrypting ?? true)
    }

    private func side(_ direction: HAPDirection) -> Side {
        direction == .controllerToAccessory ? sides[0] : sides[1]
    }

    private func hapDirection(_ direction: TCPDirection) -> HAPDirection {
        direction == controllerSends ? .controllerToAccessory : .accessoryToController
    }

    private func tcpDirection(_ direction: HAPDirection) -> TCPDirection {
        direction == .controllerToAccessory ? controllerSends : controllerSends.reversed
    }

    // MARK: Bytes in

    /// `origins`: the streams' origins as they are after the segment that delivered `bytes`.
    func receive(_ bytes: UnsafeRawBufferPointer, direction tcpDirection: TCPDirection, packet: PacketInfo, origins: TCPStreamOrigins) {
        tcp.progress.origins = origins
        let side = side(hapDirection(tcpDirection))
        let chunkStart = side.tcpOffset
        side.tcpOffset += bytes.count
        guard side.frames == nil else {
            receiveEncrypted(bytes, side: side, packet: packet)
            return
        }
        side.http.feed(bytes, packet: packet, to: self)
        guard let switchedAt = side.encryptionStartOffset else { return }
        // Encryption began inside this piece: what follows the pair-verify M4 is frames.
        side.encryptionStartOffset = nil
        let consumed = min(max(switchedAt - chunkStart, 0), bytes.count)
        if consumed < bytes.count {
            receiveEncrypted(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), side: side, packet: packet)
        }
    }

    func gap(_ byteCount: UInt64, direction tcpDirection: TCPDirection, packet: PacketInfo, origins: TCPStreamOrigins) {
        tcp.progress.origins = origins
        let side = side(hapDirection(tcpDirection))
        side.tcpOffset += Int(clamping: byteCount)
        side.lostData = true
        context.emit(.problem(CaptureProblem(.streamGap,
            "\(info) \(side.direction): \(byteCount) bytes missing from the capture; analysis resumes after them",
            connection: info, direction: side.direction)), packet)
        if let frames = side.frames {
            frames.skipGap(byteCount, packet: packet, to: self)
            side.resynchronising = nil
        } else {
            side.http.skip(byteCount, packet: packet, to: self)
        }
    }

    private func receiveEncrypted(_ bytes: UnsafeRawBufferPointer, side: Side, packet: PacketInfo) {
        guard !bytes.isEmpty, let frames = side.frames else { return }
        if frames.mayStartPlaintext(bytes) {
            // Plaintext HTTP where frames are due: a peer that forgot, or never meant, to encrypt.
            sessionProblem(.plaintextAfterEncryption, side.direction, counter: nil,
                           "plaintext HTTP (\"\(Self.firstLine(bytes))\") after the session switched to encrypted frames", packet)
            emitDecryptedData(bytes, side.direction, packet)
            side.http.parseStrayPlaintext(bytes, packet: packet, to: self)
            return
        }
        frames.receive(bytes, packet: packet, to: self)
        if holdsEvents || frames.isJoining { holdEventsWhileSearchingFrames() }
    }

    /// While a direction's frame boundary is searched its packets wait in the joiner, and the
    /// events of other connections wait for them (`CaptureOrderBuffer`).
    private func holdEventsWhileSearchingFrames() {
        holdsEvents = false
        for side in sides {
            let hold = CaptureOrderBuffer.Hold(connection: info.id, .frameSearch(side.direction))
            if let held = side.frames?.earliestHeldPacket {
                context.hold(hold, from: held)
                holdsEvents = true
            } else {
                context.release(hold)
            }
        }
    }

    // MARK: The switch to encrypted frames

    /// Switches both directions to frames. `frameStarts` are the TCP stream offsets where each
    /// direction's frames begin.
    private func startSession(_ start: SessionStart, packet: PacketInfo, frameStarts: [HAPDirection: Int]) {
        encryptionStarted = true
        var decryptable: Set<HAPDirection> = []
        var revealed: [HAPDirection: String]?
        for side in sides {
            side.http.restartForEncryptedFrames()
            let key = start.keys[side.direction]
            side.frames = EncryptedChannel(side.direction, key: key, maximumFrameLength: context.limits.maximumFrameLength)
            guard let key else { continue }
            decryptable.insert(side.direction)
            if context.configuration.revealsSessionKeys {
                revealed = (revealed ?? [:]).merging([side.direction: Hex.encode(key.secret.revealedBytes())]) { $1 }
            }
        }
        var missing = start.missingKeys
        if missing == nil, decryptable.count == 1, let only = decryptable.first { missing = .onlyOneDirection(only) }
        var sequenceNumbers: [HAPDirection: UInt32] = [:]
        for (direction, offset) in frameStarts {
            guard let origin = tcp.streamOrigin(tcpDirection(direction)) else { continue }
            sequenceNumbers[direction] = origin &+ UInt32(truncatingIfNeeded: offset)
        }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: start.trigger, decryptable: decryptable, keySource: start.source,
            undecryptableBecause: missing, revealedKeys: revealed,
            tcpFrameStart: sequenceNumbers.count == 2 ? sequenceNumbers : nil)), packet)
    }

    private func emitDecryptedData(_ bytes: UnsafeRawBufferPointer, _ direction: HAPDirection, _ packet: PacketInfo) {
        guard context.configuration.emitsDecryptedData else { return }
        context.emit(.decryptedData(DecryptedDataEvent(connection: info, direction: direction, plaintext: Array(bytes))), packet)
    }

    private func sessionProblem(_ kind: SessionProblemEvent.Kind, _ direction: HAPDirection, counter: UInt64?, _ message: String, _ packet: PacketInfo) {
        context.emit(.sessionProblem(SessionProblemEvent(
            connection: info, direction: direction, kind: kind, frameCounter: counter, message: message)), packet)
    }

    private static func firstLine(_ bytes: UnsafeRawBufferPointer) -> String {
        let line = bytes.prefix(80).prefix { $0 != 0x0D && $0 != 0x0A }
        return String(decoding: line, as: UTF8.self)
    }

    // MARK: Joining a session the capture began inside

    /// A direction's frames were found: the first direction found names the session, whose key
    /// alone the other direction then tries, and the session starts.
    private func joined(_ direction: HAPDirection, _ join: HAPFrameJoiner.Join, packet: PacketInfo) {
        guard var joining, let owner = joining.keyOwners[direction]?[join.keyIndex] else { return }
        side(direction).resynchronising = Resynchronisation(join: join)
        if joining.matched == nil {
            joining.matched = owner
            let session = joining.candidates[owner]
            context.keyLogSessions.claim(session.id)
            self.joining = joining
            let other = side(direction.reversed)
            if let frames = other.frames, frames.isJoining {
                if let index = joining.keyOwners[other.direction]?.firstIndex(of: owner) {
                    frames.keepOnlyJoinKey(at: index)
                } else {
                    other.frames = .startedBeforeCapture(other.direction)
                    markNotJoined(other.direction, .noKeyForDirection, packet: packet)
                }
            }
            emitJoinedSessionStart(session, packet: packet)
        } else {
            self.joining = joining
        }
    }

    private func emitJoinedSessionStart(_ session: KeyLogSession, packet: PacketInfo) {
        guard let joining else { return }
        let decryptable = Set(HAPDirection.allCases.filter { session.keys[$0] != nil && joining.failed[$0] == nil })
        var revealed: [HAPDirection: String]?
        if context.configuration.revealsSessionKeys {
            revealed = Dictionary(uniqueKeysWithValues: decryptable.map { ($0, Hex.encode(session.keys[$0]!.secret.revealedBytes())) })
        }
        let missing: SessionStartEvent.UndecryptableReason? = decryptable.count == 1 ? .onlyOneDirection(decryptable.first!) : nil
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: .beforeCapture, decryptable: decryptable, keySource: session.source,
            undecryptableBecause: missing, revealedKeys: revealed,
            keyLogMatch: session.endpoints != nil ? .sessionEndpoints : .keyTrial)), packet)
        flushJoinEvents()
    }

    /// No candidate key opens a direction.
    private func failedToJoin(_ direction: HAPDirection, _ failure: HAPFrameJoiner.Failure, packet: PacketInfo) {
        guard let joining else { return }
        let reason: SessionJoinEvent.NotJoined = switch failure.reason {
        case _ where side(direction).tcpOffset == 0: .nothingCaptured
        case .noFrameBoundary: .noFrameBoundary
        case .noKeyOpens:
            .noKeyOpens(keysTried: joining.matched == nil ? joining.keyOwners[direction]?.count ?? 0 : 1,
                        countersTried: failure.countersTried, reachedCounterLimit: failure.reachedCounterLimit,
                        reachedCheckBudget: failure.reachedCheckBudget)
        }
        if failure.reachedCounterLimit {
            context.limitReached(.frameCounterSearch,
                "\(info) \(direction): no key-log key verified a frame with counters below the frame.counter-search limit (\(context.limits.maximumCounterSearch)); an older session needs a larger one",
                packet)
        }
        if failure.reachedCheckBudget {
            context.limitReached(.frameJoinChecks,
                "\(info) \(direction): the frame.join-checks limit (\(context.limits.maximumJoinChecks) tag checks) ran out before every key-log key had its counters tried; SESSION_ENDPOINTS in the key log, or a larger limit, narrows or widens the search",
                packet)
        }
        markNotJoined(direction, reason, packet: packet)
    }

    /// Records that a direction stays encrypted; when neither direction was joined, the session
    /// starts undecryptable.
    private func markNotJoined(_ direction: HAPDirection, _ reason: SessionJoinEvent.NotJoined, packet: PacketInfo) {
        joining?.failed[direction] = reason
        emitJoinEvent(.notJoined(reason), direction, packet)
        guard let joining, joining.matched == nil, HAPDirection.allCases.allSatisfy({ joining.failed[$0] != nil }) else { return }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: .beforeCapture, decryptable: [], keySource: nil,
            undecryptableBecause: .noKeyLogSessionOpens(tried: joining.candidates.count))), packet)
        flushJoinEvents()
    }

    /// A joined direction's plaintext reached the start of a message (or the connection ended
    /// first): what was skipped is reported.
    private func resynchronised(_ side: Side, foundMessageStart: Bool, packet: PacketInfo) {
        guard let resynchronisation = side.resynchronising.take() else { return }
        let join = resynchronisation.join
        emitJoinEvent(.joined(SessionJoinEvent.Joined(
            skippedBytes: join.skippedByteCount, firstCounter: join.firstCounter, cutMessageBytes: resynchronisation.cutMessageBytes,
            foundMessageStart: foundMessageStart, countersTried: join.countersTried)), side.direction, packet)
    }

    private func emitJoinEvent(_ outcome: SessionJoinEvent.Outcome, _ direction: HAPDirection, _ packet: PacketInfo) {
        let event = SessionJoinEvent(connection: info, direction: direction, outcome: outcome)
        if joining?.sessionStartEmitted == true {
            context.emit(.sessionJoined(event), packet)
        } else {
            joining?.pendingEvents.append((event, packet))
        }
    }

    private func flushJoinEvents() {
        guard var joining else { return }
        joining.sessionStartEmitted = true
        let pending = joining.pendingEvents
        joining.pendingEvents = []
        self.joining = joining
        for (event, packet) in pending { context.emit(.sessionJoined(event), packet) }
    }

    /// The connection ended: directions still being joined are decided on what they hold, and
    /// the session start is reported even when neither direction carried a frame.
    private func finishJoining(packet: PacketInfo) {
        guard joining != nil else { return }
        for side in sides { side.frames?.finishJoining(packet: packet, to: self) }
        holdEventsWhileSearchingFrames()
        for side in sides { resynchronised(side, foundMessageStart: false, packet: packet) }
    }

    // MARK: Messages

    private func handle(_ message: HTTPMessage, on channel: HTTPChannel, first: PacketInfo, last: PacketInfo) {
        httpMessageCount += 1
        let answered = message.kind == .response ? requests.answer() : nil
        // Read once: the secrets check and the request's bookkeeping both need them. The method
        // alone, not the request line: an optional line (two strings) held here was copied and
        // destroyed through an outlined function two to three times per message.
        let target = message.kind == .request ? message.hapRequestTarget : nil
        let method = message.method
        let encrypted = side(channel.direction).frames != nil && !channel.isParsingStrayPlaintext
        // A direction that could not be decrypted at all yields no messages to pair.
        let timed = !sides.contains { $0.lostData }
        let parsedEvent = message.kind == .event ? attributes.parseBody(message, as: CharacteristicEvent.self) : nil
        let databaseRead = message.kind == .response && answered?.endpoint == .accessories && message.status == .ok
            ? attributes.readDatabase(message, deviceID: deviceID) : nil
        // Looked up once for the messages that name characteristics, and handed to each use.
        let database = message.kind == .event || answered?.endpoint == .characteristics
            || (target?.endpoint == .characteristics && method == .put)
            ? attributes.lookUp(deviceID: deviceID) : nil
        let notificationProblems = if message.kind == .event, let database {
            judgeNotification(parsedEvent, startingIn: first, database: database, requestsKnown: timed)
        } else {
            [NotificationProblem]()
        }
        context.emit(.httpMessage(HTTPMessageEvent(
            connection: info, direction: channel.direction, message: message, encrypted: encrypted,
            firstPacket: first, lastPacket: last,
            request: answered.map { .init(method: $0.method, target: $0.target, packet: $0.packet) },
            responseTiming: timed ? answered.map { ResponseTiming(request: $0.packet, response: first) } : nil,
            notificationProblems: notificationProblems,
            bodyWithoutSecrets: bodyWithoutSecrets(
                message, target: target, method: method, answering: answered, database: database, databaseRead: databaseRead))), last)

        switch message.kind {
        case .request:
            if let method { handleRequest(message, method: method, target: target, packet: last) }
        case .response:
            if let answered { handleResponse(message, to: answered, database: database, databaseRead: databaseRead, packet: last) }
        case .event:
            if let database { attributes.event(message, parsed: parsedEvent, database: database, packet: last) }
        }
    }

    /// A `/characteristics` body whose TLV8 values carry key material, as reports may show it
    /// (nil when it holds none, or when the user asked for secrets).
    private func bodyWithoutSecrets(
        _ message: HTTPMessage, target: HAPRequestTarget?, method: HTTPMethod?, answering request: PendingRequest?,
        database: AttributeTracker.FoundDatabase?, databaseRead: AttributeTracker.DatabaseRead?
    ) -> HTTPMessageEvent.BodyWithoutSecrets? {
        guard !context.configuration.revealsSessionKeys else { return nil }
        let written: Bool
        switch message.kind {
        case .request:
            guard target?.endpoint == .characteristics, method == .put else { return nil }
            written = true
        case .response where request?.endpoint == .accessories:
            return CharacteristicBodySecrets.withoutSecrets(accessories: message, known: databaseRead?.database, limits: context.limits.json)
        case .response:
            guard request?.endpoint == .characteristics else { return nil }
            written = false
        case .event:
            written = false
        }
        return CharacteristicBodySecrets.withoutSecrets(
            message, databaseWithSecrets: database?.databaseWithSecretValues, written: written, limits: context.limits.json)
    }

    private func handleRequest(_ message: HTTPMessage, method: HTTPMethod, target: HAPRequestTarget?, packet: PacketInfo) {
        let request = PendingRequest(
            method: method.description, target: message.requestTarget ?? "", endpoint: target?.endpoint, packet: packet)
        switch target?.endpoint {
        case .pairSetup?, .pairVerify?, .pairings?:
            pairingMessage(message, endpoint: target?.endpoint, direction: .controllerToAccessory, packet: packet)
        case .characteristics? where request.method == "PUT":
            request.writes = attributes.decodeBody(message, packet: packet, as: CharacteristicWriteRequest.self, kind: .writeRequest)
        case .characteristics?:
            request.readQuery = target?.characteristicQuery
        case .prepare?:
            if let prepare = attributes.decodeBody(message, packet: packet, as: PrepareRequest.self, kind: .prepareRequest) {
                requests.prepare(prepare, at: packet)
            }
        default:
            break
        }
        if !requests.add(request) {
            context.limitReached(.httpPendingRequests, "\(info): more requests waiting for responses than the http.pending-requests limit: the oldest is forgotten", packet)
        }
    }

    private func handleResponse(
        _ message: HTTPMessage, to request: PendingRequest, database: AttributeTracker.FoundDatabase?,
        databaseRead: AttributeTracker.DatabaseRead?, packet: PacketInfo
    ) {
        switch request.endpoint {
        case .pairSetup?, .pairVerify?, .pairings?:
            pairingMessage(message, endpoint: request.endpoint, direction: .accessoryToController, packet: packet)
        case .accessories? where message.status == .ok:
            if let databaseRead { attributes.accessoryDatabase(message, read: databaseRead, deviceID: deviceID, packet: packet) }
        case .characteristics? where request.method == "PUT":
            if let database { attributes.writeResults(message, for: request, database: database, packet: packet) }
            if let writes = request.writes, let status = message.status {
                notifications.writeAnswered(writes, status: status, packet: packet)
            }
        case .characteristics? where message.status == .ok || message.status == .multiStatus:
            if let database { attributes.readResponse(message, for: request, database: database, packet: packet) }
        default:
            break
        }
    }

    /// An EVENT judged against the connection's subscriptions, its pending request and HAP's
    /// coalescing, on the characteristics its body names (a body that is not HAP JSON is reported
    /// by the attribute tracker). The pending request counts only while `requestsKnown`: after
    /// lost messages the oldest request may have been answered unseen.
    private func judgeNotification(
        _ parsed: Result<CharacteristicEvent, DecodeError>?, startingIn packet: PacketInfo, database: AttributeTracker.FoundDatabase,
        requestsKnown: Bool
    ) -> [NotificationProblem] {
        // Read in place: a list of the ids would cost an allocation per EVENT, and mapping the
        // entries copied each one to read its id.
        let entries = (try? parsed?.get())?.entries ?? []
        let ids = entries.indices.lazy.map { entries[$0].id }
        attributes.announceIfBorrowed(database, packet: packet)
        return notifications.judge(eventFor: ids, at: packet, pending: requestsKnown ? requests.oldest : nil) { database.characteristics?[$0]?.type }
    }

    private func pairingMessage(_ message: HTTPMessage, endpoint: HAPRequestTarget.Endpoint?, direction: HAPDirection, packet: PacketInfo) {
        let procedure: PairingProcedure = switch endpoint {
        case .pairSetup?: .pairSetup
        case .pairVerify?: .pairVerify
        default: .pairings
        }
        guard !message.body.isEmpty else { return }
        let start = pairing.follow(procedure, direction: direction, body: message.bodySpan, packet: packet, connection: info, context: context)
        if let id = pairing.accessoryID, deviceID == nil { deviceID = id }
        if let start, !encryptionStarted {
            // The message that completes the procedure is the last plaintext in its direction;
            // the other direction's next byte is its first frame.
            startSession(start, packet: packet, frameStarts: [direction: message.endOffset, direction.reversed: side(direction.reversed).tcpOffset])
            side(direction).encryptionStartOffset = message.endOffset
        }
    }

    // MARK: Closing

    func close(reason: TCPCloseReason, packet: PacketInfo?, tcpEnd: TCPConnectionEnd) {
        tcp.progress = tcpEnd.progress
        let end = packet ?? tcpEnd.lastPacket
        finishJoining(packet: end)
        for side in sides where side.frames?.isDecrypting ?? true {
            side.http.finish(packet: end, to: self)
        }
        pairing.finish(at: end, connection: info, context: context)
        var unansweredRequests: [ConnectionSummary.UnansweredRequest] = []
        let accessoryDirectionSeenWhole = seenWholeAtClose(.accessoryToController)
        while let unanswered = requests.answer() {
            attributes.unansweredWrites(unanswered, deviceID: deviceID, packet: end)
            unansweredRequests.append(.init(
                request: .init(method: unanswered.method, target: unanswered.target, packet: unanswered.packet),
                waitedSeconds: max(0, end.timestamp - unanswered.packet.timestamp), accessoryDirectionSeenWhole: accessoryDirectionSeenWhole))
        }
        var frames: [HAPDirection: FrameStatistics] = [:]
        if encryptionStarted {
            for side in sides { frames[side.direction] = side.frames?.frames ?? FrameStatistics() }
        }
        context.emit(.connectionClosed(ConnectionSummary(
            connection: info, deviceID: deviceID, reason: ConnectionCloseReason(reason), handshakeSeen: tcp.progress.handshakeSeen,
            firstPacket: tcp.firstPacket, lastPacket: tcpEnd.lastPacket,
            tcp: [.controllerToAccessory: .init(tcpEnd.statistics(controllerSends)),
                  .accessoryToController: .init(tcpEnd.statistics(controllerSends.reversed))],
            frames: frames, encrypted: encryptionStarted,
            decrypted: Set(sides.filter { $0.frames?.hasDecrypted == true }.map(\.direction)),
            carried: .http(messages: httpMessageCount), unansweredRequests: unansweredRequests)), end)
    }
}

// MARK: What the channels report

extension HAPConnection: HTTPChannelReceiver {
    func channel(_ channel: HTTPChannel, parsed message: HTTPMessage, firstPacket: PacketInfo, lastPacket: PacketInfo) {
        handle(message, on: channel, first: firstPacket, last: lastPacket)
    }

    func channel(_ channel: HTTPChannel, discarded bytes: HTTPDiscardedBytes, packet: PacketInfo) {
        guard bytes.reason != .emptyLines else { return }
        side(channel.direction).lostData = true
        context.emit(.problem(CaptureProblem(.undecodableHTTP,
            "\(info) \(channel.direction): \(bytes.range.count) bytes at stream offset \(bytes.range.lowerBound) skipped (\(bytes.reason))",
            connection: info, direction: channel.direction)), packet)
    }

    func channel(_ channel: HTTPChannel, failed error: DecodeError, packet: PacketInfo) {
        side(channel.direction).lostData = true
        if let limit = error.limit {
            context.limitReached(limit, "\(info) \(channel.direction): an HTTP limit was reached: \(error)", packet)
        }
        context.emit(.problem(CaptureProblem(.undecodableHTTP, "\(info) \(channel.direction): \(error)", connection: info, direction: channel.direction)), packet)
    }
}

extension HAPConnection: EncryptedChannelReceiver {
    func channel(_ channel: EncryptedChannel, decrypted plaintext: UnsafeRawBufferPointer, packet: PacketInfo) {
        emitDecryptedData(plaintext, channel.direction, packet)
        let side = side(channel.direction)
        if side.resynchronising != nil {
            // HTTP resumes with the first frame that starts a message: senders start every
            // message in a new frame.
            guard EncryptedChannel.looksLikePlaintextHTTP(plaintext) else {
                side.resynchronising?.cutMessageBytes += plaintext.count
                return
            }
            resynchronised(side, foundMessageStart: true, packet: packet)
        }
        side.http.feed(plaintext, packet: packet, to: self)
    }

    func channelLostFrame(_ channel: EncryptedChannel, packet: PacketInfo) {
        side(channel.direction).lostData = true
        guard side(channel.direction).resynchronising == nil else { return }
        side(channel.direction).http.skip(1, packet: packet, to: self)
    }

    func channel(_ channel: EncryptedChannel, joined join: HAPFrameJoiner.Join, packet: PacketInfo) {
        joined(channel.direction, join, packet: packet)
    }

    func channel(_ channel: EncryptedChannel, failedToJoin failure: HAPFrameJoiner.Failure, packet: PacketInfo) {
        failedToJoin(channel.direction, failure, packet: packet)
    }

    func channel(_ channel: EncryptedChannel, problem: SessionProblemEvent.Kind, counter: UInt64?, _ message: String, packet: PacketInfo) {
        if problem != .oversizeFrame { side(channel.direction).lostData = true }
        sessionProblem(problem, channel.direction, counter: counter, message, packet)
    }

    func channel(_ channel: EncryptedChannel, reached limit: LimitName, packet: PacketInfo) {
        context.limitReached(limit, "\(info) \(channel.direction): a frame longer than the \(limit) limit", packet)
    }
}

extension ConnectionCloseReason {
    init(_ reason: TCPCloseReason) {
        self = switch reason {
        case .fin: .closed
        case .reset: .reset
        case .idleTimeout: .idleTimeout
        case .evicted: .evicted
        case .captureEnded: .captureEnded
        case .portReused: .superseded
        }
    }
}

extension ConnectionSummary.TCPCounters {
    init(_ statistics: TCPDirectionStatistics) {
        self.init(
            packets: statistics.packets, payloadBytes: statistics.payloadBytes, retransmissions: statistics.retransmissions,
            outOfOrderSegments: statistics.outOfOrderSegments, conflictingOverlaps: statistics.conflictingOverlaps,
            gaps: statistics.gaps, gapBytes: statistics.gapBytes, bytesDroppedByLimit: statistics.bytesDroppedByLimit)
    }
}
