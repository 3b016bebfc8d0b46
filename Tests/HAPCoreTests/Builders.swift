import HAPCrypto
import HAPEvents
import Packets
import TestSupport
import TLV8
@testable import HAPCore

/// One connection's `PairingFollower`, fed built pairing bodies as a transport would hand them
/// over: each in its own packet, numbered from 1, a millisecond apart.
final class PairingHarness {
    let context: AnalysisContext
    let recorder: EventRecorder
    let connection = ConnectionInfo.example()
    var follower = PairingFollower()
    private(set) var packetNumber = 0

    init(keyLog lines: [String] = []) throws {
        (context, recorder) = try AnalysisContext.recording(keyLog: lines)
    }

    /// A controller's request of `procedure`; returns how the session continues, if it does.
    @discardableResult
    func request(_ procedure: PairingProcedure, _ body: [UInt8]) -> SessionStart? {
        follow(procedure, .controllerToAccessory, body)
    }

    /// The accessory's response of `procedure`.
    @discardableResult
    func response(_ procedure: PairingProcedure, _ body: [UInt8]) -> SessionStart? {
        follow(procedure, .accessoryToController, body)
    }

    private func follow(_ procedure: PairingProcedure, _ direction: HAPDirection, _ body: [UInt8]) -> SessionStart? {
        packetNumber += 1
        return follower.follow(procedure, direction: direction, body: body.span.bytes, packet: .numbered(packetNumber),
                               connection: connection, context: context)
    }

    /// The connection closed: the exchange in progress is reported.
    func close() {
        follower.finish(at: nil, connection: connection, context: context)
    }

    /// Another connection of the same run: a new follower, the same context.
    func newConnection() {
        close()
        follower = PairingFollower()
    }

    /// Runs M1–M6 of `setup`, and returns what M6 returned.
    @discardableResult
    func pairSetup(_ setup: PairSetupTranscript) -> SessionStart? {
        request(.pairSetup, setup.m1())
        response(.pairSetup, setup.m2())
        request(.pairSetup, setup.m3())
        response(.pairSetup, setup.m4())
        request(.pairSetup, setup.m5())
        return response(.pairSetup, setup.m6())
    }

    /// Runs M1–M4 of `verify`, and returns what M4 returned: how the session continues.
    @discardableResult
    func pairVerify(_ verify: PairVerifyTranscript) -> SessionStart? {
        request(.pairVerify, verify.m1())
        response(.pairVerify, verify.m2())
        request(.pairVerify, verify.m3())
        return response(.pairVerify, verify.m4())
    }

    /// The one exchange reported so far.
    var onlyExchange: PairingExchangeEvent? { recorder.pairingExchanges.only }
}

extension PairingExchangeEvent {
    /// The outcome of the check of `kind`, when it was made.
    func outcome(_ kind: PairingCheck.Kind) -> PairingCheck.Outcome? {
        check(kind)?.outcome
    }
}
