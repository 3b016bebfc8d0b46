import Packets
import Testing
@testable import TCPReassembly

/// Records what a `StreamAssembler` produces, with a budget of its own.
final class RecordingOutput: StreamAssemblerOutput {
    var bufferLimits = StreamBufferLimits(maximumBytes: 1 << 20, maximumRanges: 1_024)
    var totalBudget = Int.max
    var buffered = 0
    var pieces: [StreamPiece] = []
    var limitsReached: [StreamBufferLimit] = []

    func deliver(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo) { pieces.append(.bytes([UInt8](bytes), packet: packet.number)) }
    func skipGap(of byteCount: UInt64, packet: PacketInfo) { pieces.append(.gap(byteCount, packet: packet.number)) }
    func canBuffer(_ byteCount: Int) -> Bool { buffered + byteCount <= totalBudget }
    func didBuffer(_ byteCount: Int) { buffered += byteCount }
    func didRelease(_ byteCount: Int) { buffered -= byteCount }
    func didReach(_ limit: StreamBufferLimit) { limitsReached.append(limit) }
}

@Suite struct StreamAssemblerTests {
    static func segment(_ number: Int, seq: UInt32, flags: TCPFlags = [], _ text: String, missing: Int = 0, into assembler: inout StreamAssembler, output: RecordingOutput) {
        let packet = PacketInfo(number: number, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0)
        let endpoint = Endpoint(address: .v4(1), port: 1)
        Array(text.utf8).withUnsafeBytes { bytes in
            assembler.receive(TCPSegment(
                packet: packet, source: endpoint, destination: endpoint, sequenceNumber: seq, acknowledgmentNumber: 0,
                flags: flags, window: 0, payload: bytes, missingPayloadCount: missing), output: output)
        }
    }

    @Test func theFirstSegmentPlacesTheStreamAndItsBytesAreDeliveredAtOnce() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        Self.segment(1, seq: 500, "abc", into: &assembler, output: output)
        #expect(output.pieces == [.bytes(Array("abc".utf8), packet: 1)])
        #expect(assembler.origin == 500)
        #expect(assembler.nextOffset == 3)
    }

    @Test func theBufferHoldsExactlyTheBytesWaitingForAHole() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        Self.segment(1, seq: 0, "a", into: &assembler, output: output)
        Self.segment(2, seq: 3, "de", into: &assembler, output: output)
        Self.segment(3, seq: 2, "cdef", missing: 2, into: &assembler, output: output)   // "c", then "f", then 2 cut off
        #expect(assembler.bufferedByteCount == 4)
        #expect(assembler.bufferedRangeCount == 4)
        #expect(output.buffered == 4)
        Self.segment(4, seq: 1, "b", into: &assembler, output: output)
        #expect(output.pieces == [
            .bytes([0x61], packet: 1), .bytes([0x62], packet: 4), .bytes([0x63], packet: 3),
            .bytes([0x64, 0x65], packet: 2), .bytes([0x66], packet: 3), .gap(2, packet: 3),
        ])
        #expect(assembler.bufferedByteCount == 0)
        #expect(output.buffered == 0)
        #expect(assembler.nextOffset == 8)
    }

    @Test func theRangeLimitIsNeverExceeded() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        output.bufferLimits.maximumRanges = 3
        Self.segment(1, seq: 0, "a", into: &assembler, output: output)
        for index in 1...50 {
            Self.segment(index + 1, seq: UInt32(index * 2), "x", into: &assembler, output: output)
            #expect(assembler.bufferedRangeCount <= 3)
        }
        #expect(output.limitsReached.count == 47)
        #expect(output.limitsReached.allSatisfy { $0 == .rangesPerDirection })
    }

    @Test func theSharedBudgetIsAskedBeforeBuffering() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        output.totalBudget = 2
        Self.segment(1, seq: 0, "a", into: &assembler, output: output)
        Self.segment(2, seq: 2, "cd", into: &assembler, output: output)
        Self.segment(3, seq: 5, "f", into: &assembler, output: output)
        #expect(output.limitsReached == [.bytesInTotal])
        #expect(output.pieces == [.bytes([0x61], packet: 1), .gap(1, packet: 3), .bytes([0x63, 0x64], packet: 2)])
        #expect(assembler.statistics.bytesDroppedByLimit == 1)
        #expect(output.buffered == 1)
    }

    @Test func aSnapLengthCountBeyondWhatSerialArithmeticCanPlaceIsNotBelieved() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        Self.segment(1, seq: 0, "a", missing: Int.max, into: &assembler, output: output)
        #expect(assembler.nextOffset == 1 + Int64(Int32.max))
        #expect(assembler.statistics.payloadBytes == 0)   // counted by the reassembler, not by receive
    }

    @Test func aSYNIsConsistentOnlyWithTheStreamItStarted() {
        var assembler = StreamAssembler()
        let output = RecordingOutput()
        #expect(assembler.isContinued(bySYN: 77))
        Self.segment(1, seq: 99, flags: .syn, "", into: &assembler, output: output)
        #expect(assembler.isContinued(bySYN: 99))
        #expect(!assembler.isContinued(bySYN: 100))
    }
}
