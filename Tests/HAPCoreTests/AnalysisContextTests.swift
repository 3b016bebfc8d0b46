import HAPEvents
import HAPJSON
import Packets
import Testing
import TestSupport
import WireParsing
@testable import HAPCore

@Suite("The state every transport shares")
struct AnalysisContextTests {
    @Test("events leave through the one sink, in the order emitted, with their packets")
    func emit() throws {
        let (context, recorder) = try AnalysisContext.recording()
        context.emit(.problem(CaptureProblem(.streamGap, "first")), .numbered(1))
        context.emit(.problem(CaptureProblem(.streamGap, "second")), nil)
        #expect(recorder.problems.map(\.message) == ["first", "second"])
        #expect(recorder.events.map(\.packet?.number) == [1, nil])
    }

    @Test("a limit reached is counted every time and reported once, with its typed name and the packet that hit it first")
    func limitReached() throws {
        let (context, recorder) = try AnalysisContext.recording()
        context.limitReached(.httpBody, "the first body", .numbered(3))
        context.limitReached(.httpBody, "the second body", .numbered(4))
        context.limitReached(.frameLength, "a frame", .numbered(5))
        context.limitReached(.httpBody, "the third body", .numbered(6))
        #expect(context.summary.limitsReached == [.httpBody: 3, .frameLength: 1])
        let reported = recorder.problems(.limitReached)
        #expect(reported.map(\.problem.message) == ["the first body", "a frame"])
        #expect(reported.map(\.problem.limit) == [.httpBody, .frameLength])
        #expect(reported.map(\.packet?.number) == [3, 5])
    }

    @Test("hits a lower layer counted itself are added without a problem; none adds nothing")
    func addLimitHits() throws {
        let (context, recorder) = try AnalysisContext.recording()
        context.addLimitHits(.tcpConnections, 0)
        #expect(context.summary.limitsReached.isEmpty)
        context.addLimitHits(.tcpConnections, 7)
        context.limitReached(.tcpConnections, "reported here", nil)
        #expect(context.summary.limitsReached[.tcpConnections] == 8)
        #expect(recorder.problems.isEmpty, "the layer below reported it; this count is not its first")
    }

    @Test("a long-term key is found in the key log first, then among the keys learned in this run, whatever the case")
    func longTermKeys() throws {
        let logged = PairingParty.accessory
        let (context, _) = try AnalysisContext.recording(keyLog: [logged.keyLogLine(.accessoryLTPK)])
        #expect(context.accessoryLTPK(logged.identifier.lowercased()) == logged.longTermPublicKey)
        let learned = PairingParty(identifier: "AA:BB:CC:DD:EE:FF", seed: 9)
        #expect(context.accessoryLTPK(learned.identifier) == nil)
        context.accessoryLTPKs[learned.identifier.lowercased()] = learned.longTermPublicKey
        #expect(context.accessoryLTPK("aa:bb:cc:dd:ee:ff") == learned.longTermPublicKey)
        #expect(context.accessoryLTPK("AA:BB:CC:DD:EE:FF") == learned.longTermPublicKey)
        context.accessoryLTPKs[logged.identifier.lowercased()] = learned.longTermPublicKey
        #expect(context.accessoryLTPK(logged.identifier) == logged.longTermPublicKey, "the user's key log wins")
    }

    @Test("controllers' keys are looked up the same way, apart from accessories'")
    func controllerKeys() throws {
        let controller = PairingParty.controller
        let (context, _) = try AnalysisContext.recording(keyLog: [controller.keyLogLine(.controllerLTPK)])
        #expect(context.controllerLTPK(controller.identifier.lowercased()) == controller.longTermPublicKey)
        #expect(context.accessoryLTPK(controller.identifier) == nil)
        context.controllerLTPKs["abc"] = [1]
        #expect(context.controllerLTPK("ABC") == [1])
    }

    @Test("the configuration's key log and limits are the context's")
    func configuration() throws {
        var limits = AnalysisLimits()
        limits.maximumPendingRequests = 3
        let (context, _) = try AnalysisContext.recording(keyLog: [PairingParty.accessory.keyLogLine(.accessoryLTPK)]) { $0.limits = limits }
        #expect(context.limits.maximumPendingRequests == 3)
        #expect(context.keyLog.counts[.accessoryLTPK] == 1)
    }
}
