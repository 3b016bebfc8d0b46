import Packets
import Testing
@testable import TCPReassembly
import TestSupport

/// Hostile and garbled input: nothing may crash, memory stays within the limits, and the
/// delegate's view of every connection stays consistent.
@Suite struct RobustnessTests {
    typealias H = Harness

    /// Checks what the delegate saw: each connection opened once before anything else,
    /// closed at most once and heard of no more after, and its streams' chunks and gaps add up
    /// to what its statistics say.
    static func expectConsistentEvents(_ delegate: RecordingDelegate, seed: UInt64) {
        var opened: Set<Int> = []
        var closed: Set<Int> = []
        for event in delegate.events {
            switch event {
            case .opened(let id):
                #expect(opened.insert(id).inserted, "seed \(seed): #\(id) opened twice")
            case .received(let id, _, _, _), .gap(let id, _, _, _):
                #expect(opened.contains(id) && !closed.contains(id), "seed \(seed): #\(id) event outside its life")
            case .closed(let id, _, _):
                #expect(opened.contains(id) && closed.insert(id).inserted, "seed \(seed): #\(id) closed twice")
            }
        }
        for connection in delegate.connections {
            for direction in [TCPDirection.clientToServer, .serverToClient] {
                let pieces = delegate.pieces[connection.id]?[direction] ?? []
                var delivered = 0
                var skipped: UInt64 = 0
                for piece in pieces {
                    switch piece {
                    case .bytes(let bytes, _): delivered += bytes.count
                    case .gap(let count, _): skipped += count
                    }
                }
                let statistics = connection.statistics(direction)
                #expect(statistics.deliveredBytes == delivered, "seed \(seed)")
                #expect(statistics.gapBytes == skipped, "seed \(seed)")
                #expect(statistics.bytesDroppedByLimit <= Int(clamping: statistics.gapBytes), "seed \(seed)")
            }
        }
    }

    @Test(arguments: 0..<12)
    func randomSegmentsNeverBreakTheLimitsOrTheEventOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let limits = TCPReassemblyLimits(
            maximumConnections: 16, maximumBufferedBytesPerDirection: 2_000, maximumBufferedBytes: 8_000,
            maximumOutOfOrderSegmentsPerDirection: 8, idleTimeout: .seconds(30), closedConnectionRetention: .seconds(5))
        let h = Harness(limits: limits)
        let ports: [UInt16] = [80, 51_826, 49_152, 49_153]
        let endpoints = (0..<12).map { (index: Int) -> Endpoint in
            let address: IPAddress = index % 3 == 0 ? .v6(high: 0xFE80 << 48, low: UInt64(index)) : .v4(0x0A00_0000 + UInt32(index))
            return Endpoint(address: address, port: ports[index % 4])
        }
        let allFlags: [TCPFlags] = [.syn, .ack, .fin, .rst, .psh]
        var sequenceNumbers = [UInt32](repeating: 0, count: endpoints.count)
        for index in sequenceNumbers.indices { sequenceNumbers[index] = UInt32.random(in: 0...UInt32.max, using: &random) }
        for _ in 0..<4_000 {
            let from = Int.random(in: 0..<endpoints.count, using: &random)
            let to = Int.random(in: 0..<endpoints.count, using: &random)
            var flags: TCPFlags = []
            for flag in allFlags where Int.random(in: 0..<6, using: &random) == 0 { flags.insert(flag) }
            let length = Int.random(in: 0...120, using: &random)
            // Mostly plausible sequence numbers, sometimes anything at all.
            let seq = Int.random(in: 0..<8, using: &random) == 0
                ? UInt32.random(in: 0...UInt32.max, using: &random)
                : sequenceNumbers[from] &+ UInt32.random(in: 0...400, using: &random) &- 200
            sequenceNumbers[from] = seq &+ UInt32(length)
            let ack = Int.random(in: 0..<3, using: &random) == 0 ? UInt32.random(in: 0...UInt32.max, using: &random) : sequenceNumbers[to]
            let missing = [0, 0, 0, 5, -7, Int.max, Int.min][Int.random(in: 0..<7, using: &random)]
            let jump: Int64 = Int.random(in: 0..<50, using: &random) == 0 ? 40 : 0
            h.send(from: endpoints[from], to: endpoints[to], seq: seq, ack: flags.contains(.ack) ? ack : nil, flags: flags,
                   [UInt8](repeating: UInt8(truncatingIfNeeded: seq), count: length), missing: missing, after: jump)
            let statistics = h.reassembler.statistics
            #expect(statistics.bufferedBytes <= 8_000)
            #expect(statistics.trackedConnections <= 16)
        }
        h.reassembler.finish()
        #expect(h.reassembler.statistics.bufferedBytes == 0)
        #expect(h.reassembler.statistics.trackedConnections == 0)
        Self.expectConsistentEvents(h.delegate, seed: seed)
    }

    @Test func timestampsThatRunBackwardsNeitherExpireEarlyNorCrash() {
        let h = Harness(limits: TCPReassemblyLimits(idleTimeout: .seconds(60)))
        let segment = { (seconds: Int64, seq: UInt32, text: String) in
            let info = PacketInfo(number: Int(seq), timestamp: Timestamp(seconds: seconds, nanoseconds: 0), capturedLength: 60, originalLength: 60)
            Array(text.utf8).withUnsafeBytes { bytes in
                h.reassembler.process(TCPSegment(
                    packet: info, source: H.client, destination: H.server, sequenceNumber: seq,
                    acknowledgmentNumber: 0, flags: [], window: 0, payload: bytes))
            }
        }
        segment(1_000, 1, "a")
        segment(900, 2, "b")       // 100 s back in time
        segment(1_050, 3, "c")     // 50 s after the first packet: still alive
        segment(1_200, 4, "d")     // 150 s after the last one: expired first
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "a", packet: 1),
            .received(connection: 1, .clientToServer, "b", packet: 2),
            .received(connection: 1, .clientToServer, "c", packet: 3),
            .closed(connection: 1, .idleTimeout, packet: nil),
            .opened(connection: 2),
            .received(connection: 2, .clientToServer, "d", packet: 4),
        ])
    }

    @Test func aSegmentFromAnEndpointToItselfIsFollowedLikeAnyOther() {
        let h = Harness()
        h.send(from: H.client, to: H.client, seq: 10, "loop")
        h.send(from: H.client, to: H.client, seq: 14, ack: 14, "back")
        h.reassembler.finish()
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "loop", packet: 1),
            .received(connection: 1, .clientToServer, "back", packet: 2),
            .closed(connection: 1, .captureEnded, packet: nil),
        ])
    }

    @Test func aNegativeSnapLengthCutIsTakenAsNone() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc", missing: -40)
        h.send(seq: 1004, "def")
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .received(connection: 1, .clientToServer, "def", packet: 5),
        ])
        #expect(try #require(h.delegate.connection(1)).clientToServer.payloadBytes == 6)
    }

    @Test func anACKHalfTheSequenceSpaceAwayIsNotTakenAsAGiantGap() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")
        h.send(from: H.server, seq: 5001, ack: 1004 &+ 0x8000_0000)   // as far behind as ahead: behind
        #expect(h.events.dropFirst() == [.received(connection: 1, .clientToServer, "abc", packet: 4)])
    }
}
