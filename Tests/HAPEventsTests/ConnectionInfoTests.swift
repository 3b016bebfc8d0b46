import HAPEvents
import Packets
import Testing

@Suite struct ConnectionInfoTests {
    @Test func aHAPOverIPConnectionIsNamedByItsTCPConnectionAndEndpoints() {
        let connection = ConnectionInfo(
            tcpConnection: 2, controller: Endpoint(address: .v4(0x0A4D_0001), port: 49202),
            accessory: Endpoint(address: .v4(0x0A4D_0002), port: 51826))
        #expect(connection.description == "#2 10.77.0.1:49202 → 10.77.0.2:51826")
        #expect(connection.transport == .ip(tcpConnection: 2))
        #expect(connection.transport.name == "ip")
        #expect(connection.accessory.endpoint?.port == 51826)
    }

    @Test func aBluetoothConnectionIsNamedByItsDeviceAddresses() {
        let controller = BluetoothDeviceAddress(littleEndianBytes: [0x66, 0x55, 0x44, 0x33, 0x22, 0x11], isRandom: false)
        let accessory = BluetoothDeviceAddress(value: 0xC0FF_EE00_0001, isRandom: true)
        let connection = ConnectionInfo(
            id: 1, transport: .bluetoothLE(connectionHandle: 0x40), controller: .bluetooth(controller), accessory: .bluetooth(accessory))
        #expect(connection.description == "#1 11:22:33:44:55:66 → C0:FF:EE:00:00:01/random")
        #expect(connection.transport.name == "ble")
        #expect(connection.accessory.endpoint == nil)
    }
}
