import Packets
import Testing
@testable import TCPReassembly

@Suite struct GapTests {
    typealias H = Harness

    @Test func anACKBeyondAHoleTurnsTheUncapturedBytesIntoAGap() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")                       // 4; "def" at 1004 is never captured
        h.send(seq: 1007, "ghi")                       // 5
        h.send(from: H.server, seq: 5001, ack: 1010)   // 6: the server got all nine bytes
        h.send(seq: 1004, "def")                       // 7: a late copy, already skipped
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.gaps == 1)
        #expect(statistics.gapBytes == 3)
        #expect(statistics.bytesDroppedByLimit == 0)
        #expect(statistics.retransmissions == 1)
        #expect(statistics.deliveredBytes == 6)
    }

    @Test func anACKBeyondEverythingCapturedIsAGapToo() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")
        h.send(from: H.server, seq: 5001, ack: 1010)
        h.send(seq: 1010, "jkl")
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 6, packet: 5),
            .received(connection: 1, .clientToServer, "jkl", packet: 6),
        ])
    }

    @Test func anACKThatCoversNothingNewChangesNothing() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")
        h.send(seq: 1007, "ghi")
        h.send(from: H.server, seq: 5001, ack: 1004)   // only what was delivered
        h.send(from: H.server, seq: 5001, ack: 1001)   // an old ACK
        #expect(h.events.dropFirst() == [.received(connection: 1, .clientToServer, "abc", packet: 4)])
    }

    @Test func bytesTheSnapLengthCutOffBecomeAGapAfterTheCapturedOnes() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "ab", missing: 3)   // 4
        h.send(seq: 1006, "fg")               // 5
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "ab", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 4),
            .received(connection: 1, .clientToServer, "fg", packet: 5),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.payloadBytes == 7)
        #expect(statistics.gapBytes == 3)
    }

    @Test func aSnapCutSegmentThatArrivesOutOfOrderKeepsItsGapInPlace() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1006, "fg", missing: 2)   // 4
        h.send(seq: 1001, "abcde")            // 5
        h.send(seq: 1010, "jk")               // 6
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abcde", packet: 5),
            .received(connection: 1, .clientToServer, "fg", packet: 4),
            .gap(connection: 1, .clientToServer, 2, packet: 4),
            .received(connection: 1, .clientToServer, "jk", packet: 6),
        ])
    }

    @Test func holesLeftAtTheEndOfTheCaptureAreReportedBeforeTheClose() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")   // 4
        h.send(seq: 1007, "ghi")   // 5
        h.send(seq: 1013, "mno")   // 6
        h.reassembler.finish()
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "mno", packet: 6),
            .closed(connection: 1, .captureEnded, packet: nil),
        ])
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.clientToServer.gaps == 2)
        #expect(connection.clientToServer.deliveredBytes + Int(connection.clientToServer.gapBytes) == 15)
        #expect(h.reassembler.statistics.bufferedBytes == 0)
        #expect(h.reassembler.statistics.trackedConnections == 0)
    }

    @Test func theBytesMissingBeforeAFINAreAGapWhenTheCaptureEnds() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")                   // 4
        h.send(seq: 1007, flags: .fin, "ghi")      // 5: FIN at 1010
        h.send(from: H.server, seq: 5001, flags: .fin)
        h.reassembler.finish()
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .closed(connection: 1, .captureEnded, packet: nil),
        ])
    }

    @Test func anACKOfTheFINBeyondAHoleLetsTheConnectionCloseNormally() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, ack: 5001, "abc")                     // 4
        h.send(seq: 1007, ack: 5001, flags: .fin, "ghi")        // 5
        h.send(from: H.server, seq: 5001, ack: 1011, flags: .fin)   // 6: acknowledges the FIN
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .closed(connection: 1, .fin, packet: 6),
        ])
    }
}
