import Bluetooth
import HAPEvents
import Packets
import Testing
@testable import BLETransport

/// What the GSN says between two LE connections: the values seen on one still stand when the
/// next opens only if the accessory advertised since, and with the GSN it had before the first.
@Suite("GlobalStateNumberWatch")
struct GlobalStateNumberWatchTests {
    static let accessory = BluetoothAddress(wireBytes: [0x6F, 0x5E, 0x4D, 0x3C, 0x2B, 0xE1])
    static let on: UInt16 = 50

    static func packet(_ number: Int) -> PacketInfo {
        PacketInfo(number: number, timestamp: Timestamp(seconds: Int64(number), nanoseconds: 0), capturedLength: 40, originalLength: 40)
    }

    static func connection(_ id: Int) -> ConnectionInfo {
        ConnectionInfo(id: id, transport: .bluetoothLE(connectionHandle: 1),
                       controller: .bluetooth(BluetoothAddress(wireBytes: [1, 0, 0, 0, 0x77, 0xC0])), accessory: .bluetooth(accessory))
    }

    /// GSN `before` advertised (packet 1), connection 1 sees On = 0 and closes (packet 2), then
    /// `after` is advertised (packet 3; nothing new when nil), and connection 2 opens.
    static func standing(before: UInt16, after: UInt16?) -> GlobalStateNumberWatch.StandingValues? {
        var watch = GlobalStateNumberWatch(maximumAccessories: 4)
        #expect(watch.opened(connection(1), to: accessory, latest: (before, packet(1))) == nil)
        watch.closed(connection(1), to: accessory, values: [on: [0]], in: packet(2))
        return watch.opened(connection(2), to: accessory, latest: after.map { ($0, packet(3)) } ?? (before, packet(1)))
    }

    @Test("The GSN advertised after the connection is the one from before it: its values stand")
    func unchanged() throws {
        let standing = try #require(Self.standing(before: 7, after: 7))
        #expect(standing.earlierConnection.id == 1 && standing.globalStateNumber == 7)
        #expect(standing.values == [Self.on: [0]] && standing.advertisementPacket.number == 3)
    }

    @Test("A GSN that moved (also across the wrap from 65535 to 1) leaves nothing standing")
    func moved() {
        #expect(Self.standing(before: 7, after: 8) == nil)
        #expect(Self.standing(before: 65535, after: 1) == nil)
    }

    @Test("Without an advertisement since the connection closed, nothing is known of the time between")
    func noAdvertisement() {
        #expect(Self.standing(before: 7, after: nil) == nil)
    }

    @Test("A connection that saw no value of a disconnected-notifying characteristic leaves nothing to judge")
    func nothingSeen() {
        var watch = GlobalStateNumberWatch(maximumAccessories: 4)
        _ = watch.opened(Self.connection(1), to: Self.accessory, latest: (7, Self.packet(1)))
        watch.closed(Self.connection(1), to: Self.accessory, values: [:], in: Self.packet(2))
        #expect(watch.opened(Self.connection(2), to: Self.accessory, latest: (7, Self.packet(3))) == nil)
    }

    @Test("Accessories beyond the bound are forgotten, oldest first")
    func bounded() {
        var watch = GlobalStateNumberWatch(maximumAccessories: 1)
        _ = watch.opened(Self.connection(1), to: Self.accessory, latest: (7, Self.packet(1)))
        watch.closed(Self.connection(1), to: Self.accessory, values: [Self.on: [0]], in: Self.packet(2))
        _ = watch.opened(Self.connection(3), to: BluetoothAddress(wireBytes: [9, 9, 9, 9, 9, 9]), latest: (3, Self.packet(3)))
        #expect(watch.opened(Self.connection(2), to: Self.accessory, latest: (7, Self.packet(4))) == nil)
    }
}
