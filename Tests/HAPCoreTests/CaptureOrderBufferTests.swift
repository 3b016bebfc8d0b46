import HAPEvents
import Packets
import Testing
@testable import HAPCore

@Suite("Events in capture order while connections hold packets")
struct CaptureOrderBufferTests {
    private func packet(_ number: Int) -> PacketInfo {
        PacketInfo(number: number, timestamp: Timestamp(seconds: Int64(number), nanoseconds: 0), capturedLength: 60, originalLength: 60)
    }

    private func event(_ number: Int?, _ text: String = "") -> HAPEvent {
        HAPEvent(packet: number.map(packet), kind: .problem(CaptureProblem(.streamGap, text)))
    }

    private func numbers(_ events: [HAPEvent]) -> [Int?] { events.map { $0.packet?.number } }

    private let first = CaptureOrderBuffer.Hold(connection: 1, .frameSearch(.accessoryToController))

    @Test("with nothing held, events pass straight through")
    func passThrough() {
        var buffer = CaptureOrderBuffer()
        #expect(buffer.isPassingThrough)
        #expect(numbers(buffer.take(event(7))) == [7])
    }

    @Test("events after a held packet wait until the holder replays it, then leave sorted by packet")
    func heldThenReplayed() {
        var buffer = CaptureOrderBuffer()
        buffer.hold(first, from: packet(4))
        #expect(buffer.take(event(6)).isEmpty)
        #expect(buffer.take(event(8)).isEmpty)
        // The replay of packet 4 comes after them, and the release puts it first.
        #expect(buffer.take(event(4)).isEmpty)
        #expect(numbers(buffer.release(first)) == [4, 6, 8])
        #expect(buffer.isPassingThrough)
    }

    @Test("only events before the earliest remaining hold leave; events of one packet keep their order")
    func twoHolds() {
        var buffer = CaptureOrderBuffer()
        let second = CaptureOrderBuffer.Hold(connection: 2, .recognition)
        buffer.hold(first, from: packet(4))
        buffer.hold(second, from: packet(9))
        for (number, text) in [(10, "a"), (5, "b"), (10, "c"), (4, "d")] { _ = buffer.take(event(number, text)) }
        #expect(numbers(buffer.release(first)) == [4, 5])
        let rest = buffer.release(second)
        #expect(numbers(rest) == [10, 10])
        #expect(rest.map { if case .problem(let problem) = $0.kind { problem.message } else { "" } } == ["a", "c"])
    }

    @Test("an event with no packet keeps its place after the latest packet seen")
    func eventWithoutPacket() {
        var buffer = CaptureOrderBuffer()
        buffer.hold(first, from: packet(3))
        _ = buffer.take(event(5))
        _ = buffer.take(event(nil))
        _ = buffer.take(event(3))
        #expect(numbers(buffer.release(first)) == [3, 5, nil])
    }

    @Test("a hold that lasts lets the waiting events go at the capacity, so memory stays bounded")
    func bounded() {
        var buffer = CaptureOrderBuffer()
        buffer.hold(first, from: packet(1))
        var left = 0
        for number in 2...(CaptureOrderBuffer.capacity + 10) { left += buffer.take(event(number)).count }
        #expect(left == CaptureOrderBuffer.capacity)
        #expect(numbers(buffer.drain()).count == 9)
    }

    @Test("releasing a holder that holds nothing changes nothing")
    func releaseUnknown() {
        var buffer = CaptureOrderBuffer()
        #expect(buffer.release(first).isEmpty)
        #expect(buffer.isPassingThrough)
    }
}
