import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
import Packets
import TCPReassembly
import Testing
import TestSupport
import WireParsing
@testable import IPTransport

@Suite("One HAP-over-IP connection")
struct HAPConnectionTests {
    let verify = PairVerifyTranscript()
    var keyLog: [String] {
        [verify.keyLogLine(.sharedSecret), verify.accessory.keyLogLine(.accessoryLTPK), verify.controller.keyLogLine(.controllerLTPK)]
    }
    static let database = #"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"Lamp"}]},{"iid":9,"type":"43","characteristics":[{"iid":10,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":false}]}]}]}"#

    /// The two directions' frame sealers of `verify`'s session.
    struct Sealers {
        var controller: HAPFrameEncryptor
        var accessory: HAPFrameEncryptor

        init(_ verify: PairVerifyTranscript) {
            controller = HAPFrameEncryptor(key: verify.sessionKeys.controllerToAccessory)
            accessory = HAPFrameEncryptor(key: verify.sessionKeys.accessoryToController)
        }

        mutating func controllerSends(_ plaintext: [UInt8]) -> [UInt8] { try! controller.seal(plaintext.span.bytes) }
        mutating func accessorySends(_ plaintext: [UInt8]) -> [UInt8] { try! accessory.seal(plaintext.span.bytes) }
    }

    // MARK: Plaintext

    @Test("each response answers the oldest request, and names it")
    func requestsAndResponses() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories") + HTTPText.request("GET", "/characteristics?id=1.10"))
        connection.serverSends(HTTPText.jsonResponse(Self.database))
        connection.serverSends(HTTPText.jsonResponse(#"{"characteristics":[{"aid":1,"iid":10,"value":true}]}"#))
        let messages = connection.recorder.httpMessages
        #expect(messages.map(\.request?.target) == [nil, nil, "/accessories", "/characteristics?id=1.10"])
        #expect(messages.map(\.request?.packet.number) == [nil, nil, 1, 1])
        #expect(messages.allSatisfy { !$0.encrypted })
        #expect(connection.recorder.databases.count == 1)
        #expect(connection.recorder.characteristics.map(\.kind) == [.read])
        #expect(connection.recorder.characteristics.first?.name == "On", "typed by the database fetched just before")
    }

    @Test("a message spread over many segments names the packets of its first and last byte")
    func messageOverManySegments() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        let response = HTTPText.jsonResponse(Self.database)
        for piece in pieces(response, cutAt: [40, 80, 120]) { connection.serverSends(piece) }
        let message = try #require(connection.recorder.httpMessages.last)
        #expect(message.firstPacket.number == 2)
        #expect(message.lastPacket.number == 5)
        #expect(connection.recorder.events.last { if case .httpMessage = $0.kind { true } else { false } }?.packet?.number == 5)
    }

    @Test("a response with no request waiting answers nothing, and is still reported")
    func responseWithoutRequest() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        connection.serverSends(HTTPText.jsonResponse(Self.database))
        connection.serverSends(HTTPText.response(status: "204 No Content"))
        #expect(connection.recorder.httpMessages.map(\.request?.target) == [nil, "/accessories", nil])
    }

    @Test("an EVENT is no response: it leaves the waiting request to the response that follows")
    func eventsAnswerNothing() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        connection.serverSends(HTTPText.event(Array(#"{"characteristics":[{"aid":1,"iid":10,"value":1}]}"#.utf8)))
        connection.serverSends(HTTPText.jsonResponse(Self.database))
        #expect(connection.recorder.httpMessages.map(\.request?.target) == [nil, nil, "/accessories"])
        #expect(connection.recorder.characteristics.map(\.kind) == [.event])
    }

    @Test("more requests waiting than the pending limit: the oldest is forgotten, and the limit named once")
    func pendingLimit() throws {
        let connection = try TrackedConnection { $0.limits.maximumPendingRequests = 1 }
        for _ in 0 ..< 3 { connection.clientSends(HTTPText.request("GET", "/accessories")) }
        #expect(connection.recorder.problems(.limitReached).map(\.problem.limit) == [.httpPendingRequests])
        #expect(connection.context.summary.limitsReached[.httpPendingRequests] == 2)
    }

    @Test("bytes the HTTP parser skips are a problem naming where they were; empty lines are not")
    func undecodableHTTP() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories") + Array("\r\n\r\n".utf8))
        #expect(connection.recorder.problems.isEmpty)
        connection.clientSends(Array("PUT /characteristics HTTP/1.1\r\nContent-Length: zero\r\n\r\n".utf8))
        let problems = connection.recorder.problems(.undecodableHTTP)
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.problem.connection == .example() && $0.problem.direction == .controllerToAccessory })
    }

    @Test("a gap is a problem; the HTTP after it is found again")
    func plaintextGap() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        connection.clientSends(Array("GET /charac".utf8))
        connection.gap(40, .clientToServer)
        connection.clientSends(HTTPText.request("GET", "/characteristics?id=1.10"))
        let gap = try #require(connection.recorder.problems(.streamGap).only)
        #expect(gap.problem.message.contains("40 bytes missing"))
        #expect(gap.problem.direction == .controllerToAccessory)
        #expect(connection.recorder.httpMessages.map(\.message.requestLine?.target) == ["/accessories", "/characteristics?id=1.10"])
    }

    // MARK: Pairing and the switch to frames

    @Test("pair-verify with its secret logged: the session starts after M4 and both directions' frames are read")
    func verifiedSession() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        connection.clientSends(sealers.controllerSends(HTTPText.request("GET", "/accessories")))
        connection.serverSends(sealers.accessorySends(HTTPText.jsonResponse(Self.database)))
        connection.close()
        let recorder = connection.recorder
        #expect(recorder.pairingMessages.map(\.state) == [.m1, .m2, .m3, .m4])
        #expect(recorder.pairingExchanges.only?.outcome == .succeeded)
        let start = try #require(recorder.sessionStarts.only)
        #expect(start.trigger == .pairVerify)
        #expect(start.decryptable == [.controllerToAccessory, .accessoryToController])
        #expect(start.keySource == .pairVerifySharedSecret)
        #expect(start.undecryptableBecause == nil)
        #expect(start.revealedKeys == nil, "keys are shown only when asked for")
        #expect(recorder.events.firstIndex { if case .sessionStarted = $0.kind { true } else { false } }
            == recorder.events.firstIndex { if case .pairingExchange = $0.kind { true } else { false } }.map { $0 + 1 },
            "the session starts right after the exchange that keyed it")
        let encrypted = recorder.httpMessages.filter(\.encrypted)
        #expect(encrypted.map(\.message.requestLine?.target) == ["/accessories", nil])
        #expect(encrypted.last?.request?.target == "/accessories")
        #expect(recorder.databases.only?.deviceID == verify.accessory.identifier, "pair-verify M2 named the accessory")
        let summary = try #require(recorder.connectionsClosed.only)
        #expect(summary.encrypted)
        #expect(summary.decrypted == [.controllerToAccessory, .accessoryToController])
        #expect(summary.frames[.accessoryToController]?.frames == 1)
        #expect(summary.carried == .http(messages: 6))
        #expect(summary.deviceID == verify.accessory.identifier)
        #expect(summary.reason == .closed)
        #expect(recorder.problems.isEmpty && recorder.sessionProblems.isEmpty)
    }

    @Test("frames that follow M4 in the same piece are decrypted: the switch happens inside the piece")
    func switchInsideAPiece() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        var sealers = Sealers(verify)
        let event = HTTPText.event(Array(#"{"characteristics":[{"aid":1,"iid":10,"value":1}]}"#.utf8))
        connection.pairVerify(verify, lastResponseTail: sealers.accessorySends(event))
        let last = try #require(connection.recorder.httpMessages.last)
        #expect(last.encrypted)
        #expect(last.message.kind == .event)
        #expect(last.firstPacket.number == 4, "the M4 packet carried the frame too")
        #expect(connection.recorder.characteristics.map(\.kind) == [.event])
        #expect(connection.recorder.problems.isEmpty)
    }

    @Test("an M4 response split over pieces switches where it ends, in the piece that ends it")
    func switchAfterASplitM4() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        var sealers = Sealers(verify)
        connection.clientSends(HTTPText.pairingRequest("/pair-verify", verify.m1()))
        connection.serverSends(HTTPText.pairingResponse(verify.m2()))
        connection.clientSends(HTTPText.pairingRequest("/pair-verify", verify.m3()))
        let m4 = HTTPText.pairingResponse(verify.m4())
        let frame = sealers.accessorySends(HTTPText.event(Array(#"{"characteristics":[{"aid":1,"iid":10,"value":0}]}"#.utf8)))
        connection.serverSends(Array(m4.prefix(20)))
        connection.serverSends(Array(m4.dropFirst(20)) + Array(frame.prefix(7)))
        connection.serverSends(Array(frame.dropFirst(7)))
        let messages = connection.recorder.httpMessages
        #expect(messages.map(\.encrypted) == [false, false, false, false, true])
        #expect(messages[3].firstPacket.number == 4 && messages[3].lastPacket.number == 5)
        #expect(messages[4].firstPacket.number == 6, "the frame's plaintext was completed by the last piece")
        #expect(connection.recorder.problems.isEmpty && connection.recorder.sessionProblems.isEmpty)
    }

    @Test("without a key-log entry the session is counted, its frames followed, and the reason given")
    func undecryptableSession() throws {
        let connection = try TrackedConnection()
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        connection.clientSends(sealers.controllerSends(HTTPText.request("GET", "/accessories")))
        connection.close()
        let start = try #require(connection.recorder.sessionStarts.only)
        #expect(start.decryptable.isEmpty)
        #expect(start.undecryptableBecause == .noKeyLogEntry(controllerEphemeralKey: verify.controllerPublicKey))
        let summary = try #require(connection.recorder.connectionsClosed.only)
        #expect(summary.frames[.controllerToAccessory]?.frames == 1)
        #expect(summary.decrypted.isEmpty)
        #expect(connection.recorder.httpMessages.count == 4)
        #expect(connection.recorder.problems.isEmpty, "an undecryptable stream is not an incomplete message")
    }

    @Test("with one control key, one direction is read and the other named as missing")
    func oneDirection() throws {
        let connection = try TrackedConnection(keyLog: [verify.keyLogLine(.controlReadKey)])
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        connection.clientSends(sealers.controllerSends(HTTPText.request("GET", "/accessories")))
        connection.serverSends(sealers.accessorySends(HTTPText.jsonResponse(Self.database)))
        let start = try #require(connection.recorder.sessionStarts.only)
        #expect(start.decryptable == [.accessoryToController])
        #expect(start.keySource == .controlKeys)
        #expect(start.undecryptableBecause == .onlyOneDirection(.accessoryToController))
        #expect(connection.recorder.httpMessages.filter(\.encrypted).map(\.direction) == [.accessoryToController])
    }

    @Test("the session keys are revealed in the event only when the user asked")
    func revealedKeys() throws {
        let connection = try TrackedConnection(keyLog: keyLog) { $0.revealsSessionKeys = true }
        connection.pairVerify(verify)
        let keys = try #require(connection.recorder.sessionStarts.only?.revealedKeys)
        #expect(keys[.controllerToAccessory] == Hex.encode(verify.sessionKeys.controllerToAccessory.secret.revealedBytes()))
        #expect(keys[.accessoryToController] == Hex.encode(verify.sessionKeys.accessoryToController.secret.revealedBytes()))
    }

    @Test("a transient pair-setup switches to frames keyed from K after M4")
    func transientSetup() throws {
        let setup = PairSetupTranscript(flags: .transient)
        let connection = try TrackedConnection(keyLog: [setup.keyLogLine])
        connection.clientSends(HTTPText.pairingRequest("/pair-setup", setup.m1()))
        connection.serverSends(HTTPText.pairingResponse(setup.m2()))
        connection.clientSends(HTTPText.pairingRequest("/pair-setup", setup.m3()))
        connection.serverSends(HTTPText.pairingResponse(setup.m4()))
        var encryptor = HAPFrameEncryptor(key: setup.keys.transientSession.controllerToAccessory)
        connection.clientSends(try encryptor.seal(HTTPText.request("GET", "/accessories").span.bytes))
        let start = try #require(connection.recorder.sessionStarts.only)
        #expect(start.trigger == .transientPairSetup)
        #expect(start.keySource == .pairSetupSessionKey)
        #expect(connection.recorder.httpMessages.last?.encrypted == true)
        #expect(connection.recorder.httpMessages.last?.message.requestLine?.target == "/accessories")
    }

    @Test("a second pair-verify on an encrypted connection does not start the session again")
    func oneSessionStart() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        let again = PairVerifyTranscript(seed: 3)
        connection.clientSends(sealers.controllerSends(HTTPText.pairingRequest("/pair-verify", again.m1())))
        connection.serverSends(sealers.accessorySends(HTTPText.pairingResponse(again.m2())))
        connection.clientSends(sealers.controllerSends(HTTPText.pairingRequest("/pair-verify", again.m3())))
        connection.serverSends(sealers.accessorySends(HTTPText.pairingResponse(again.m4())))
        #expect(connection.recorder.pairingExchanges.count == 2)
        #expect(connection.recorder.sessionStarts.count == 1)
    }

    @Test("plaintext where frames are due is a session problem, and is parsed on its own without losing the frames")
    func plaintextAfterEncryption() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        connection.clientSends(sealers.controllerSends(HTTPText.request("GET", "/characteristics?id=1.10")))
        let problem = try #require(connection.recorder.sessionProblems.only)
        #expect(problem.kind == .plaintextAfterEncryption)
        #expect(problem.direction == .controllerToAccessory)
        #expect(problem.message.contains("GET /accessories HTTP/1.1"))
        let last = connection.recorder.httpMessages.suffix(2)
        #expect(last.map(\.encrypted) == [false, true])
        #expect(last.map(\.message.requestLine?.target) == ["/accessories", "/characteristics?id=1.10"])
    }

    @Test("a gap inside a frame loses that frame's message; the next frame is read")
    func gapInsideAFrame() throws {
        let connection = try TrackedConnection(keyLog: keyLog)
        connection.pairVerify(verify)
        var sealers = Sealers(verify)
        let lost = sealers.controllerSends(HTTPText.request("GET", "/accessories"))
        connection.clientSends(Array(lost.prefix(10)))
        connection.gap(UInt64(lost.count - 10), .clientToServer)
        connection.clientSends(sealers.controllerSends(HTTPText.request("GET", "/characteristics?id=1.10")))
        #expect(connection.recorder.httpMessages.filter(\.encrypted).map(\.message.requestLine?.target) == ["/characteristics?id=1.10"])
        #expect(connection.recorder.problems(.streamGap).count == 1)
        #expect(connection.recorder.sessionProblems.isEmpty)
    }

    @Test("decrypted plaintext is emitted, in stream order, only when asked for")
    func decryptedData() throws {
        let request = HTTPText.request("GET", "/accessories")
        let quiet = try TrackedConnection(keyLog: keyLog)
        quiet.pairVerify(verify)
        var sealers = Sealers(verify)
        quiet.clientSends(sealers.controllerSends(request))
        #expect(quiet.recorder.decryptedData.isEmpty)
        let asked = try TrackedConnection(keyLog: keyLog) { $0.emitsDecryptedData = true }
        asked.pairVerify(verify)
        sealers = Sealers(verify)
        asked.clientSends(sealers.controllerSends(request))
        let data = try #require(asked.recorder.decryptedData.only)
        #expect(data.plaintext == request)
        #expect(data.direction == .controllerToAccessory)
    }

    // MARK: Closing

    @Test("at the close, writes never answered are reported, the pairing in progress ended, and the totals given")
    func closeWithOutstandingRequests() throws {
        let setup = PairSetupTranscript()
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.pairingRequest("/pair-setup", setup.m1()))
        connection.serverSends(HTTPText.pairingResponse(setup.m2()))
        connection.clientSends(HTTPText.request(
            "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":1,"iid":10,"value":true}]}"#.utf8),
            contentType: "application/hap+json"))
        connection.close(.reset)
        let write = try #require(connection.recorder.characteristics.only)
        #expect(write.kind == .write)
        #expect(!write.answered)
        #expect(connection.recorder.pairingExchanges.only?.outcome == .incomplete(lastState: .m2))
        let summary = try #require(connection.recorder.connectionsClosed.only)
        #expect(summary.reason == .reset)
        #expect(!summary.encrypted)
        #expect(summary.frames.isEmpty)
        #expect(summary.carried == .http(messages: 3))
        #expect(summary.firstPacket.number == 1)
        #expect(summary.tcp.keys.sorted { $0.rawValue < $1.rawValue } == [.accessoryToController, .controllerToAccessory])
        #expect(connection.recorder.events.last.map { if case .connectionClosed = $0.kind { true } else { false } } == true)
    }

    @Test("a message still in progress at the close is reported: its bytes as skipped, and the truncation")
    func cutShortAtClose() throws {
        let connection = try TrackedConnection()
        connection.clientSends(HTTPText.request("GET", "/accessories"))
        connection.serverSends(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{".utf8))
        connection.close()
        let problems = connection.recorder.problems(.undecodableHTTP).map(\.problem)
        #expect(problems.map(\.direction) == [.accessoryToController, .accessoryToController])
        #expect(problems.first?.message.hasSuffix("skipped (incompleteMessage)") == true, "\(problems)")
        #expect(problems.last?.message.contains("truncated") == true, "\(problems)")
        #expect(connection.recorder.httpMessages.count == 1)
    }

    @Test("TCP close reasons become the vocabulary's")
    func closeReasons() {
        let pairs: [(TCPCloseReason, ConnectionCloseReason)] = [
            (.fin, .closed), (.reset, .reset), (.idleTimeout, .idleTimeout), (.evicted, .evicted), (.captureEnded, .captureEnded),
            (.portReused, .superseded),
        ]
        for (tcp, hap) in pairs { #expect(ConnectionCloseReason(tcp) == hap) }
    }
}
