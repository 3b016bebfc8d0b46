import Packets
import Testing
@testable import TCPReassembly

@Suite struct ConnectionLifecycleTests {
    typealias H = Harness

    @Test func bytesAfterTheFINAreIgnoredAndCounted() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, flags: .fin, "abc")   // FIN at 1004
        h.send(seq: 1004, "zzz")
        h.send(seq: 1003, "cd")                 // one old byte, one beyond the FIN
        #expect(h.events.dropFirst() == [.received(connection: 1, .clientToServer, "abc", packet: 4)])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.bytesBeyondStreamEnd == 4)
        #expect(statistics.deliveredBytes == 3)
    }

    @Test func aFINAheadOfAHoleClosesTheConnectionOnlyOnceTheHoleFills() {
        let h = Harness()
        h.handshake()
        h.send(from: H.server, seq: 5001, flags: .fin)   // 4
        h.send(seq: 1004, flags: .fin, "def")            // 5
        #expect(h.events == [.opened(connection: 1)])
        h.send(seq: 1001, "abc")                         // 6
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 6),
            .received(connection: 1, .clientToServer, "def", packet: 5),
            .closed(connection: 1, .fin, packet: 6),
        ])
    }

    @Test func aFINThatContradictsBufferedBytesIsIgnored() {
        let h = Harness()
        h.handshake()
        h.send(seq: 1007, "ghi")                 // 4: buffered up to 1010
        h.send(seq: 1001, flags: .fin, "ab")     // 5: a FIN at 1003 would cut it off
        h.send(seq: 1003, "cdef")                // 6
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "ab", packet: 5),
            .received(connection: 1, .clientToServer, "cdef", packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 4),
        ])
    }

    @Test func aResetClosesTheConnectionAfterDeliveringWhatWasBuffered() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")                                  // 4
        h.send(seq: 1007, "ghi")                                  // 5
        h.send(from: H.server, seq: 5001, flags: .rst)            // 6
        h.send(seq: 1010, "jkl")                                  // 7: in flight when the reset came
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .closed(connection: 1, .reset, packet: 6),
        ])
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.clientToServer.bytesBeyondStreamEnd == 3)
        #expect(connection.lastPacket.number == 7)
        #expect(h.reassembler.statistics.connectionsOpened == 1)
    }

    @Test func aNewSYNOnAClosedConnectionStartsANewOne() throws {
        let h = Harness()
        h.handshake()
        h.send(from: H.server, seq: 5001, flags: .rst)     // 4
        h.send(from: H.client, seq: 9000, flags: .syn)     // 5
        h.send(from: H.client, seq: 9001, "GET")           // 6
        #expect(h.events == [
            .opened(connection: 1),
            .closed(connection: 1, .reset, packet: 4),
            .opened(connection: 2),
            .received(connection: 2, .clientToServer, "GET", packet: 6),
        ])
        #expect(try #require(h.delegate.connection(2)).firstPacket.number == 5)
    }

    @Test func aSYNWithANewSequenceNumberOnAnOpenConnectionIsPortReuse() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")                             // 4
        h.send(seq: 1007, "ghi")                             // 5
        h.send(from: H.client, seq: 9000, flags: .syn)       // 6
        h.send(from: H.client, seq: 9001, "GET")             // 7
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .gap(connection: 1, .clientToServer, 3, packet: 6),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .closed(connection: 1, .portReused, packet: 6),
            .opened(connection: 2),
            .received(connection: 2, .clientToServer, "GET", packet: 7),
        ])
        #expect(h.reassembler.statistics.portReuses == 1)
        #expect(try #require(h.delegate.connection(2)).handshakeSeen)
        #expect(try #require(h.delegate.connection(1)).lastPacket.number == 5)   // the new SYN is not the old connection's
    }

    @Test func aSYNOnAConnectionPickedUpMidStreamStartsANewOne() {
        let h = Harness()
        h.send(seq: 3000, "GET")
        h.send(from: H.client, seq: 9000, flags: .syn)
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "GET", packet: 1),
            .closed(connection: 1, .portReused, packet: 2),
            .opened(connection: 2),
        ])
    }

    @Test func anIdleConnectionClosesWhenCaptureTimePassesItsTimeout() throws {
        let h = Harness(limits: TCPReassemblyLimits(idleTimeout: .seconds(60)))
        h.handshake()
        h.send(seq: 1001, "abc")                                         // 4
        h.send(seq: 1004, "def", after: 30)                              // 5: still alive
        let other = Endpoint(address: .v4(0xC0A8_0115), port: 50_000)
        h.send(from: other, to: H.server, seq: 1, flags: .syn, after: 61)   // 6
        h.send(seq: 1007, "ghi")                                         // 7: the old ports again
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .received(connection: 1, .clientToServer, "def", packet: 5),
            .closed(connection: 1, .idleTimeout, packet: nil),
            .opened(connection: 2),
            .opened(connection: 3),
            .received(connection: 3, .clientToServer, "ghi", packet: 7),
        ])
        #expect(h.reassembler.statistics.idleTimeouts == 1)
        #expect(try !#require(h.delegate.connection(3)).handshakeSeen)
    }

    @Test func aQuietLiveCaptureExpiresIdleConnectionsOnRequest() {
        let h = Harness(limits: TCPReassemblyLimits(idleTimeout: .seconds(60)))
        h.handshake()
        h.reassembler.expireIdleConnections(at: Timestamp(seconds: h.clock.seconds + 59, nanoseconds: 0))
        #expect(h.events == [.opened(connection: 1)])
        h.reassembler.expireIdleConnections(at: Timestamp(seconds: h.clock.seconds + 61, nanoseconds: 0))
        #expect(h.events == [.opened(connection: 1), .closed(connection: 1, .idleTimeout, packet: nil)])
    }

    @Test func aClosedConnectionAbsorbsItsLastPacketsOnlyForItsRetention() {
        let h = Harness(limits: TCPReassemblyLimits(closedConnectionRetention: .seconds(60)))
        h.handshake()
        h.send(from: H.server, seq: 5001, flags: .rst)     // 4
        h.send(seq: 1001, "abc", after: 59)                // 5: absorbed
        h.send(seq: 1004, "def", after: 61)                // 6: a new connection, mid-stream
        #expect(h.events == [
            .opened(connection: 1),
            .closed(connection: 1, .reset, packet: 4),
            .opened(connection: 2),
            .received(connection: 2, .clientToServer, "def", packet: 6),
        ])
    }

    @Test func finishClosesEveryOpenConnectionInTheOrderTheyOpenedAndOnlyOnce() {
        let h = Harness()
        let clients = (0..<3).map { Endpoint(address: .v4(0xC0A8_0120), port: 50_000 + UInt16($0)) }
        for client in clients { h.send(from: client, to: H.server, seq: 100, flags: .syn) }
        h.send(from: H.server, to: clients[1], seq: 1, flags: .rst)      // closes connection 2
        h.send(from: clients[0], to: H.server, seq: 101, "later")         // connection 1 is now the most recent
        h.reassembler.finish()
        h.reassembler.finish()
        #expect(h.events == [
            .opened(connection: 1), .opened(connection: 2), .opened(connection: 3),
            .closed(connection: 2, .reset, packet: 4),
            .received(connection: 1, .clientToServer, "later", packet: 5),
            .closed(connection: 1, .captureEnded, packet: nil),
            .closed(connection: 3, .captureEnded, packet: nil),
        ])
    }
}
