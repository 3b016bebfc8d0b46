import Packets
import Testing
@testable import TCPReassembly

@Suite struct ConnectionTableTests {
    static func connection(_ id: Int) -> TrackedConnection {
        let packet = PacketInfo(number: id, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0)
        return TrackedConnection(TCPConnection(
            id: id, client: Endpoint(address: .v4(UInt32(id)), port: 40_000),
            server: Endpoint(address: .v4(0xC0A8_0132), port: 51_826), firstPacket: packet, handshakeSeen: true))
    }

    @Test func bothDirectionsOfAConnectionShareOneKey() {
        let client = Endpoint(address: .v6(high: 0xFE80 << 48, low: 1), port: 49_312)
        let server = Endpoint(address: .v4(0xC0A8_0132), port: 51_826)
        #expect(FlowKey(client, server) == FlowKey(server, client))
        #expect(FlowKey(client, server) != FlowKey(client, Endpoint(address: server.address, port: 51_827)))
    }

    @Test func theOldestConnectionIsTheLeastRecentlyTouched() throws {
        var table = ConnectionTable()
        let connections = (1...4).map(Self.connection)
        for connection in connections { table.insert(connection) }
        #expect(table.oldest(.open) === connections[0])
        table.touch(connections[0])
        table.touch(connections[2])
        #expect(table.oldest(.open) === connections[1])
        table.remove(connections[1])
        #expect(table.oldest(.open) === connections[3])
        #expect(table.count == 3)
        #expect(table[connections[1].key] == nil)
        #expect(table[connections[2].key] === connections[2])
    }

    @Test func closedConnectionsHaveAnOrderOfTheirOwn() {
        var table = ConnectionTable()
        let connections = (1...3).map(Self.connection)
        for connection in connections { table.insert(connection) }
        table.moveToClosed(connections[1])
        table.moveToClosed(connections[0])
        #expect(table.oldest(.closed) === connections[1])
        #expect(table.oldest(.open) === connections[2])
        table.touch(connections[1])
        #expect(table.oldest(.closed) === connections[0])
    }

    @Test func freedSlotsAreReused() {
        var table = ConnectionTable()
        for round in 0..<100 {
            let connection = Self.connection(round)
            table.insert(connection)
            #expect(connection.slot == 0)
            table.remove(connection)
        }
        #expect(table.count == 0)
        #expect(table.oldest(.open) == nil)
    }
}
