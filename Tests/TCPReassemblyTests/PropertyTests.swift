import Packets
import Testing
@testable import TCPReassembly
import TestSupport

/// Random conversations, cut into random segments, reordered, duplicated, overlapped and
/// thinned out, checked against the streams they were cut from. Each case is fixed by its
/// seed, so a failure names the case to replay.
@Suite struct PropertyTests {
    typealias H = Harness

    /// One segment of a generated conversation.
    struct PlannedSegment {
        var direction: TCPDirection
        /// Stream offsets of the payload.
        var range: Range<Int>
        var fin = false
    }

    struct Conversation {
        var streams: [TCPDirection: [UInt8]] = [:]
        var initialSequenceNumbers: [TCPDirection: UInt32] = [:]
        var segments: [PlannedSegment] = []
    }

    /// Two random streams, each cut into segments of 1–200 bytes, plus extra segments that
    /// straddle the cuts (consistent overlaps), duplicates, and a FIN for each stream; all
    /// shuffled together. Half the cases start their sequence numbers just below 2^32.
    static func makeConversation(seed: UInt64) -> Conversation {
        var random = SeededRandom(seed: seed)
        var conversation = Conversation()
        for direction in [TCPDirection.clientToServer, .serverToClient] {
            let length = Int.random(in: 0...3_000, using: &random)
            conversation.streams[direction] = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            conversation.initialSequenceNumbers[direction] = seed % 2 == 0
                ? UInt32.max - UInt32.random(in: 0...4_000, using: &random)
                : UInt32.random(in: 0...UInt32.max, using: &random)
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 1...200, using: &random))
                conversation.segments.append(PlannedSegment(direction: direction, range: start..<end))
                if Int.random(in: 0..<4, using: &random) == 0 {
                    let overlapStart = max(0, start - Int.random(in: 0...100, using: &random))
                    let overlapEnd = min(length, end + Int.random(in: 1...100, using: &random))
                    conversation.segments.append(PlannedSegment(direction: direction, range: overlapStart..<overlapEnd))
                }
                start = end
            }
            conversation.segments.append(PlannedSegment(direction: direction, range: length..<length, fin: true))
        }
        let duplicates = conversation.segments.filter { _ in Int.random(in: 0..<8, using: &random) == 0 }
        conversation.segments += duplicates
        conversation.segments.shuffle(using: &random)
        return conversation
    }

    /// Plays the handshake, then the segments; data segments carry no ACK, so that only the
    /// end of the capture can declare gaps. Returns the packet number → segment map.
    @discardableResult
    static func play(_ conversation: Conversation, on h: Harness) -> [Int: PlannedSegment] {
        let clientISN = conversation.initialSequenceNumbers[.clientToServer]!
        let serverISN = conversation.initialSequenceNumbers[.serverToClient]!
        h.handshake(clientISN: clientISN, serverISN: serverISN)
        var played: [Int: PlannedSegment] = [:]
        for segment in conversation.segments {
            let isn = segment.direction == .clientToServer ? clientISN : serverISN
            let bytes = Array(conversation.streams[segment.direction]![segment.range])
            let packet = h.send(
                from: segment.direction == .clientToServer ? H.client : H.server,
                seq: isn &+ 1 &+ UInt32(segment.range.lowerBound),
                flags: segment.fin ? .fin : [], bytes)
            played[packet] = segment
        }
        h.reassembler.finish()
        return played
    }

    /// The stretches of `stream` the pieces claim to cover, checked byte for byte: returns the
    /// gap ranges, adjacent ones merged, and the total length covered.
    static func replay(_ pieces: [StreamPiece], against stream: [UInt8], played: [Int: PlannedSegment], direction: TCPDirection) -> (gaps: [Range<Int>], covered: Int, mismatches: Int) {
        var offset = 0
        var gaps: [Range<Int>] = []
        var mismatches = 0
        for piece in pieces {
            switch piece {
            case .bytes(let bytes, let packet):
                let range = offset..<(offset + bytes.count)
                let source = played[packet]
                // Each chunk must come from a segment of this direction that carried those bytes.
                let fromItsSegment = source.map {
                    $0.direction == direction && $0.range.lowerBound <= range.lowerBound && range.upperBound <= $0.range.upperBound
                } ?? false
                if range.upperBound > stream.count || Array(stream[range]) != bytes || !fromItsSegment {
                    mismatches += 1
                }
                offset = range.upperBound
            case .gap(let count, _):
                let range = offset..<(offset + Int(count))
                if let last = gaps.last, last.upperBound == range.lowerBound {
                    gaps[gaps.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    gaps.append(range)
                }
                offset = range.upperBound
            }
        }
        return (gaps, offset, mismatches)
    }

    @Test(arguments: 0..<150)
    func reorderedDuplicatedAndOverlappingSegmentsDeliverEachStreamExactly(seed: UInt64) throws {
        let conversation = Self.makeConversation(seed: seed)
        let h = Harness()
        let played = Self.play(conversation, on: h)
        let connection = try #require(h.delegate.connection(1))
        #expect(h.delegate.connections.count == 1)
        for direction in [TCPDirection.clientToServer, .serverToClient] {
            let stream = conversation.streams[direction]!
            let pieces = h.delegate.pieces[1]?[direction] ?? []
            let replayed = Self.replay(pieces, against: stream, played: played, direction: direction)
            #expect(replayed.gaps.isEmpty, "seed \(seed) \(direction)")
            #expect(replayed.covered == stream.count, "seed \(seed) \(direction)")
            #expect(replayed.mismatches == 0, "seed \(seed) \(direction)")
            #expect(connection.statistics(direction).deliveredBytes == stream.count)
            #expect(connection.statistics(direction).conflictingOverlaps == 0)
        }
        let closedByFIN = if case .closed(1, .fin, _) = h.events.last { true } else { false }
        #expect(closedByFIN, "seed \(seed)")
        #expect(h.reassembler.statistics.bufferedBytes == 0)
    }

    @Test(arguments: 1_000..<1_150)
    func withSegmentsMissingTheGapsCoverExactlyTheBytesNeverCaptured(seed: UInt64) throws {
        var conversation = Self.makeConversation(seed: seed)
        var random = SeededRandom(seed: ~seed)
        conversation.segments.removeAll { !$0.fin && Int.random(in: 0..<5, using: &random) == 0 }
        let h = Harness()
        let played = Self.play(conversation, on: h)
        for direction in [TCPDirection.clientToServer, .serverToClient] {
            let stream = conversation.streams[direction]!
            var captured = [Bool](repeating: false, count: stream.count)
            for segment in conversation.segments where segment.direction == direction {
                for offset in segment.range { captured[offset] = true }
            }
            var expectedGaps: [Range<Int>] = []
            for offset in captured.indices where !captured[offset] {
                if let last = expectedGaps.last, last.upperBound == offset {
                    expectedGaps[expectedGaps.count - 1] = last.lowerBound..<(offset + 1)
                } else {
                    expectedGaps.append(offset..<(offset + 1))
                }
            }
            let pieces = h.delegate.pieces[1]?[direction] ?? []
            let replayed = Self.replay(pieces, against: stream, played: played, direction: direction)
            #expect(replayed.gaps == expectedGaps, "seed \(seed) \(direction)")
            #expect(replayed.covered == stream.count, "seed \(seed) \(direction)")
            #expect(replayed.mismatches == 0, "seed \(seed) \(direction)")
            let statistics = try #require(h.delegate.connection(1)).statistics(direction)
            #expect(statistics.deliveredBytes + Int(statistics.gapBytes) == stream.count)
        }
    }
}
