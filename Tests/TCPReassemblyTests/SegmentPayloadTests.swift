import Packets
import Testing
@testable import TCPReassembly

@Suite struct SegmentPayloadTests {
    static let packet = PacketInfo(number: 1, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0)

    @Test func trimmingTheFrontTakesCapturedBytesFirstThenMissingOnes() {
        Array("abcd".utf8).withUnsafeBytes { bytes in
            var payload = SegmentPayload(start: 10, captured: bytes, missingCount: 3, packet: Self.packet)
            payload.removeFirst(upTo: 12)
            let afterTwo = (payload.start, [UInt8](payload.captured), payload.missingCount, payload.end)
            #expect(afterTwo == (12, Array("cd".utf8), 3, 17))
            payload.removeFirst(upTo: 15)
            let afterFive = (payload.start, payload.captured.count, payload.missingCount)
            #expect(afterFive == (15, 0, 2))
            payload.removeFirst(upTo: 99)
            #expect(payload.isEmpty)
        }
    }

    @Test func trimmingTheEndKeepsWhatComesBefore() {
        Array("abcd".utf8).withUnsafeBytes { bytes in
            let payload = SegmentPayload(start: 10, captured: bytes, missingCount: 3, packet: Self.packet)
            let intoMissing = payload.prefix(upTo: 16)
            #expect(intoMissing.captured.count == 4 && intoMissing.missingCount == 2)
            let intoCaptured = payload.prefix(upTo: 12)
            #expect([UInt8](intoCaptured.captured) == Array("ab".utf8) && intoCaptured.missingCount == 0)
            #expect(payload.prefix(upTo: 5).isEmpty)
        }
    }
}
