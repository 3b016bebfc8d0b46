import HAPEvents
import Packets
import Testing
import TestSupport
import TLV8
@testable import HAPCore

@Suite("The record of one pairing exchange")
struct PairingExchangeRecordTests {
    private func step(_ number: Int, _ state: PairingState? = .m1) -> PairingExchangeEvent.Step {
        PairingExchangeEvent.Step(state: state, direction: .controllerToAccessory, packet: .numbered(number))
    }

    @Test("steps, checks and SRP problems are kept up to maximumSteps each, the first ones")
    func bounds() {
        var record = PairingExchangeRecord(procedure: .pairSetup)
        let many = PairingExchangeRecord.maximumSteps + 5
        for number in 1 ... many {
            record.append(step(number))
            record.record(PairingCheck(.srpControllerProof, .notChecked("\(number)")))
        }
        record.record([SRPValueProblem](repeating: .saltLength(byteCount: 1), count: 20))
        record.record([SRPValueProblem](repeating: .saltLength(byteCount: 2), count: 20))
        #expect(record.steps.count == PairingExchangeRecord.maximumSteps)
        #expect(record.steps.first?.packet.number == 1)
        #expect(record.steps.last?.packet.number == PairingExchangeRecord.maximumSteps)
        #expect(record.checks.count == PairingExchangeRecord.maximumSteps)
        #expect(record.checks.last?.outcome == .notChecked("\(PairingExchangeRecord.maximumSteps)"))
        #expect(record.srpProblems.count == PairingExchangeRecord.maximumSteps)
        #expect(record.srpProblems.filter { $0 == .saltLength(byteCount: 2) }.count == PairingExchangeRecord.maximumSteps - 20)
    }

    @Test("the bound is far above the six messages of a pair-setup")
    func boundIsGenerous() {
        #expect(PairingExchangeRecord.maximumSteps >= 6 * 4)
    }

    @Test("a setup is transient when it asks for it without MFi authentication")
    func transient() {
        var record = PairingExchangeRecord(procedure: .pairSetup)
        #expect(!record.isTransientSetup)
        record.flags = .transient
        record.method = .pairSetup
        #expect(record.isTransientSetup)
        record.flags = [.transient, .split]
        #expect(record.isTransientSetup)
        record.method = .pairSetupWithAuth
        #expect(!record.isTransientSetup, "HomeKitADK ignores the flag with PairSetupWithAuth")
        record.method = .pairSetup
        record.flags = .split
        #expect(!record.isTransientSetup)
    }

    @Test("an exchange that did not end is reported incomplete after the last state it reached")
    func incomplete() {
        var record = PairingExchangeRecord(procedure: .pairVerify)
        record.append(step(1))
        record.lastState = .m2
        let event = record.event(connection: .example(), sessionControllerID: nil)
        #expect(event.outcome == .incomplete(lastState: .m2))
    }

    @Test("the event carries everything the record gathered")
    func event() {
        var record = PairingExchangeRecord(procedure: .pairSetup)
        record.method = .pairSetup
        record.flags = .transient
        record.append(step(1))
        record.record(PairingCheck(.srpControllerProof, .passed))
        record.record([.saltLength(byteCount: 15)])
        record.outcome = .succeeded
        record.salt = [1, 2]
        record.controllerEphemeralKey = [3]
        record.accessoryEphemeralKey = [4]
        record.controllerID = "c"
        record.accessoryID = "a"
        record.controllerLTPK = [5]
        record.accessoryLTPK = [6]
        record.pairingsRequest = .listPairingsM1
        let event = record.event(connection: .example(7), sessionControllerID: "session")
        #expect(event.connection == .example(7))
        #expect(event.procedure == .pairSetup)
        #expect(event.method == .pairSetup)
        #expect(event.flags == .transient)
        #expect(event.outcome == .succeeded)
        #expect(event.steps.map(\.packet.number) == [1])
        #expect(event.checks == [PairingCheck(.srpControllerProof, .passed)])
        #expect(event.srpProblems == [.saltLength(byteCount: 15)])
        #expect(event.salt == [1, 2])
        #expect(event.controllerEphemeralKey == [3])
        #expect(event.accessoryEphemeralKey == [4])
        #expect(event.controllerPairingID == "c")
        #expect(event.accessoryPairingID == "a")
        #expect(event.controllerLTPK == [5])
        #expect(event.accessoryLTPK == [6])
        #expect(event.pairingsRequest == .listPairingsM1)
        #expect(event.pairingsResponse == nil)
        #expect(event.sessionControllerID == "session")
    }
}
