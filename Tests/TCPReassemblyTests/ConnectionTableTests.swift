import Packets
import Testing
@testable import TCPReassembly

@Suite struct ConnectionTableTests {
    static func entry(_ id: Int) -> ConnectionEntry {
        let packet = PacketInfo(number: id, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0)
        return ConnectionEntry(TCPConnection(
            id: id, client: Endpoint(address: .v4(UInt32(id)), port: 40_000),
            server: Endpoint(address: .v4(0xC0A8_0132), port: 51_826), firstPacket: packet, handshakeSeen: true))
    }

    @Test func bothDirectionsOfAConnectionShareOneKey() {
        let client = Endpoint(address: .v6(high: 0xFE80 << 48, low: 1), port: 49_312)
        let server = Endpoint(address: .v4(0xC0A8_0132), port: 51_826)
        #expect(FlowKey(client, server) == FlowKey(server, client))
        #expect(FlowKey(client, server).hashValue == FlowKey(server, client).hashValue)
        #expect(FlowKey(client, server) != FlowKey(client, Endpoint(address: server.address, port: 51_827)))
    }

    @Test func addressesOfDifferentFamiliesNeverShareAKey() {
        let server = Endpoint(address: .v4(0xC0A8_0132), port: 51_826)
        let v4 = Endpoint(address: .v4(1), port: 80)
        let v6 = Endpoint(address: .v6(high: 0, low: 1), port: 80)
        #expect(FlowKey(v4, server) != FlowKey(v6, server))
    }

    /// The id of the connection in the oldest slot of `order`.
    static func oldestID(_ table: ConnectionTable, _ order: ConnectionTable.Order) -> Int? {
        table.oldest(order).map { table[$0].connection.id }
    }

    @Test func theOldestConnectionIsTheLeastRecentlyTouched() {
        var table = ConnectionTable()
        let slots = (1...4).map { table.insert(Self.entry($0)) }
        #expect(Self.oldestID(table, .open) == 1)
        table.touch(slots[0])
        table.touch(slots[2])
        #expect(Self.oldestID(table, .open) == 2)
        table.touch(slots[3])
        #expect(Self.oldestID(table, .open) == 2)
    }

    @Test func removingAConnectionMovesTheLastIntoItsSlotAndKeepsTheOrder() throws {
        var table = ConnectionTable()
        let slots = (1...4).map { table.insert(Self.entry($0)) }
        table.touch(slots[0])                     // order, oldest first: 2 3 4 1
        let removedKey = table[slots[1]].key
        table.remove(slots[1])                    // connection 4 moves into slot 1
        #expect(table.count == 3)
        let removedSlot = table.slot(for: removedKey)
        #expect(removedSlot == nil)
        let found = table.slot(for: Self.entry(4).key)
        let moved = try #require(found)
        #expect(moved == slots[1])
        #expect(table[moved].connection.id == 4)
        #expect(Self.oldestID(table, .open) == 3)
        let foundThird = table.slot(for: Self.entry(3).key)
        table.touch(try #require(foundThird))
        #expect(Self.oldestID(table, .open) == 4)
        table.touch(moved)
        #expect(Self.oldestID(table, .open) == 1)
    }

    @Test func closedConnectionsHaveAnOrderOfTheirOwn() {
        var table = ConnectionTable()
        let slots = (1...3).map { table.insert(Self.entry($0)) }
        table.moveToClosed(slots[1])
        table.moveToClosed(slots[0])
        #expect(Self.oldestID(table, .closed) == 2)
        #expect(Self.oldestID(table, .open) == 3)
        #expect(table.order(of: slots[0]) == .closed)
        #expect(table.openSlots == [slots[2]])
        table.touch(slots[1])
        #expect(Self.oldestID(table, .closed) == 1)
    }

    @Test func freedSlotsAreReused() {
        var table = ConnectionTable()
        for round in 0..<100 {
            let slot = table.insert(Self.entry(round))
            #expect(slot == 0)
            table.remove(slot)
        }
        #expect(table.count == 0)
        #expect(table.oldest(.open) == nil)
    }
}
