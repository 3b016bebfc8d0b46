@testable import Audit
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport
import TLV8

@Suite("Brute-force bursts")
struct FailedSetupBurstsTests {
    private static let connection = ConnectionInfo(
        tcpConnection: 1, controller: Endpoint(address: .v4(0x0A4D_0001), port: 49201), accessory: Endpoint(address: .v4(0x0A4D_0002), port: 51826))

    /// A pair setup that ended `seconds` into the capture, in packet `seconds * 10`.
    private static func attempt(at seconds: Double, _ error: PairingErrorCode = .authentication) -> FailedSetupBursts.Attempt {
        let tenths = Int(seconds * 10)
        let packet = PacketInfo(number: tenths, timestamp: Timestamp(seconds: Int64(tenths / 10), nanoseconds: UInt32(tenths % 10) * 100_000_000),
                                capturedLength: 60, originalLength: 60)
        return .init(started: packet, ended: packet, connection: connection, error: error)
    }

    @Test("The fifth wrong code within the window brings the first four into the burst; later ones join it one by one")
    func burstGrows() {
        var bursts = FailedSetupBursts(threshold: 5, window: 60)
        for second in 1...4 {
            let (joined, ended) = bursts.add(Self.attempt(at: Double(second)))
            #expect(joined.isEmpty && ended == nil)
        }
        #expect(bursts.add(Self.attempt(at: 5)).joined.map(\.ended.number) == [10, 20, 30, 40, 50])
        #expect(bursts.add(Self.attempt(at: 6)).joined.map(\.ended.number) == [60])
        let burst = bursts.finish()
        #expect(burst?.count == 6)
        #expect(burst?.first.ended.number == 10 && burst?.last.ended.number == 60)
        #expect(bursts.finish() == nil)
    }

    @Test("Backoff or MaxTries ends the burst and starts the count again")
    func throttlingEndsTheBurst() {
        var bursts = FailedSetupBursts(threshold: 3, window: 60)
        for second in 1...3 { _ = bursts.add(Self.attempt(at: Double(second))) }
        let (joined, ended) = bursts.add(Self.attempt(at: 4, .maxTries))
        #expect(joined.isEmpty)
        #expect(ended?.count == 3)
        #expect(bursts.add(Self.attempt(at: 5)).joined.isEmpty)
        #expect(bursts.add(Self.attempt(at: 6, .backoff)).ended == nil)
        #expect(bursts.finish() == nil)
    }

    @Test("Wrong codes spread wider than the window make no burst, and a pause ends one")
    func windowBoundsTheBurst() {
        var slow = FailedSetupBursts(threshold: 3, window: 10)
        for second in stride(from: 0.0, through: 100, by: 6) {
            #expect(slow.add(Self.attempt(at: second)).joined.isEmpty)
        }
        #expect(slow.finish() == nil)

        var paused = FailedSetupBursts(threshold: 3, window: 10)
        for second in [1.0, 2, 3, 4] { _ = paused.add(Self.attempt(at: second)) }
        let (joined, ended) = paused.add(Self.attempt(at: 30))
        #expect(joined.isEmpty && ended?.count == 4)
    }

    @Test("A threshold below one acts as one, and a negative window admits no burst")
    func degenerateThresholds() {
        var single = FailedSetupBursts(threshold: 0, window: 0)
        #expect(single.add(Self.attempt(at: 1)).joined.count == 1)
        var never = FailedSetupBursts(threshold: 2, window: -1)
        for second in 1...3 { #expect(never.add(Self.attempt(at: Double(second))).joined.isEmpty) }
        #expect(never.finish() == nil)
    }
}
