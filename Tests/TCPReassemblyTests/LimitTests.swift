import Packets
import Testing
@testable import TCPReassembly

@Suite struct LimitTests {
    typealias H = Harness

    @Test func aFloodOfConnectionsStaysWithinTheConnectionLimitAndEvictsTheLeastRecentlyActive() throws {
        let h = Harness(limits: TCPReassemblyLimits(maximumConnections: 8))
        h.handshake()
        var sequenceNumber: UInt32 = 1001
        for index in 0..<1_000 {
            let client = Endpoint(address: .v4(0x0A00_0000 + UInt32(index)), port: 40_000)
            h.send(from: client, to: H.server, seq: 7, flags: .syn)
            if index % 5 == 0 {   // connection 1 stays busy
                h.send(from: H.client, seq: sequenceNumber, "ping")
                sequenceNumber += 4
            }
            #expect(h.reassembler.statistics.trackedConnections <= 8)
        }
        let statistics = h.reassembler.statistics
        #expect(statistics.peakTrackedConnections == 8)
        #expect(statistics.connectionsOpened == 1_001)
        #expect(statistics.connectionsEvicted == 1_001 - 8)
        #expect(statistics.connectionLimitHits == 1_001 - 8)
        let evicted = h.events.compactMap { event -> Int? in
            if case .closed(let id, .evicted, nil) = event { id } else { nil }
        }
        #expect(evicted.count == 993)
        #expect(!evicted.contains(1))
        #expect(evicted == evicted.sorted())   // the connections of a flood go oldest first
    }

    @Test func closedConnectionsAreForgottenBeforeOpenOnesAreEvicted() {
        let h = Harness(limits: TCPReassemblyLimits(maximumConnections: 2))
        h.handshake()                                                          // 1: open
        let second = Endpoint(address: .v4(0x0A00_0002), port: 40_000)
        h.send(from: second, to: H.server, seq: 7, flags: .syn)                // 2: open
        h.send(from: H.server, to: second, seq: 1, flags: .rst)               // 2: closed
        let third = Endpoint(address: .v4(0x0A00_0003), port: 40_000)
        h.send(from: third, to: H.server, seq: 7, flags: .syn)                 // 3: takes 2's place
        #expect(h.events == [
            .opened(connection: 1), .opened(connection: 2),
            .closed(connection: 2, .reset, packet: 5),
            .opened(connection: 3),
        ])
        #expect(h.reassembler.statistics.connectionLimitHits == 1)
        #expect(h.reassembler.statistics.connectionsEvicted == 0)
    }

    /// Segments with a one-byte hole before each, never filled and never acknowledged.
    private func sendHoleyStream(_ h: Harness, from client: Endpoint = H.client, segments: Int, size: Int) {
        var sequenceNumber: UInt32 = 1002
        for _ in 0..<segments {
            h.send(from: client, to: H.server, seq: sequenceNumber, [UInt8](repeating: 0x41, count: size))
            sequenceNumber += UInt32(size + 1)
        }
    }

    @Test func endlessOutOfOrderDataStaysWithinTheByteLimitOfADirection() throws {
        let h = Harness(limits: TCPReassemblyLimits(maximumBufferedBytesPerDirection: 4_096))
        h.handshake()
        sendHoleyStream(h, segments: 2_000, size: 100)
        let statistics = h.reassembler.statistics
        #expect(statistics.peakBufferedBytes <= 4_096)
        #expect(statistics.bufferedBytesPerDirectionLimitHits > 1_900)
        let direction = try #require(h.delegate.connection(1)).clientToServer
        // Every skipped hole is one byte, given up on because of the limit.
        #expect(direction.gapBytes == UInt64(direction.gaps))
        #expect(direction.bytesDroppedByLimit == direction.gaps)
        #expect(direction.deliveredBytes + statistics.bufferedBytes == 200_000)
    }

    @Test func outOfOrderDataAcrossConnectionsStaysWithinTheTotalByteLimit() {
        let h = Harness(limits: TCPReassemblyLimits(maximumBufferedBytes: 10_000))
        for index in 0..<50 {
            let client = Endpoint(address: .v4(0x0A00_0000 + UInt32(index)), port: 40_000)
            h.send(from: client, to: H.server, seq: 1000, flags: .syn)
            sendHoleyStream(h, from: client, segments: 20, size: 50)
            #expect(h.reassembler.statistics.bufferedBytes <= 10_000)
        }
        #expect(h.reassembler.statistics.peakBufferedBytes <= 10_000)
        #expect(h.reassembler.statistics.bufferedBytesLimitHits > 0)
        h.reassembler.finish()
        #expect(h.reassembler.statistics.bufferedBytes == 0)
    }

    @Test func theOutOfOrderSegmentLimitBoundsTheRangesADirectionHolds() throws {
        let h = Harness(limits: TCPReassemblyLimits(maximumOutOfOrderSegmentsPerDirection: 16))
        h.handshake()
        sendHoleyStream(h, segments: 100, size: 1)
        let statistics = h.reassembler.statistics
        #expect(statistics.outOfOrderSegmentsLimitHits == 100 - 16)
        #expect(statistics.bufferedBytes == 16)
        let direction = try #require(h.delegate.connection(1)).clientToServer
        #expect(direction.deliveredBytes == 100 - 16)
    }

    @Test func aSegmentLargerThanTheWholeBufferIsDeliveredAfterSkippingTheHole() {
        let h = Harness(limits: TCPReassemblyLimits(maximumBufferedBytesPerDirection: 4))
        h.handshake()
        h.send(seq: 1004, "defghi")   // 4
        #expect(h.events.dropFirst() == [
            .gap(connection: 1, .clientToServer, 3, packet: 4),
            .received(connection: 1, .clientToServer, "defghi", packet: 4),
        ])
    }

    @Test func limitsBelowTheirMinimumAreRaisedToIt() {
        let h = Harness(limits: TCPReassemblyLimits(
            maximumConnections: 0, maximumBufferedBytesPerDirection: -1, maximumBufferedBytes: -1,
            maximumOutOfOrderSegmentsPerDirection: -1))
        h.handshake()
        h.send(seq: 1004, "def")
        #expect(h.events == [
            .opened(connection: 1),
            .gap(connection: 1, .clientToServer, 3, packet: 4),
            .received(connection: 1, .clientToServer, "def", packet: 4),
        ])
        #expect(h.reassembler.statistics.trackedConnections == 1)
    }
}
