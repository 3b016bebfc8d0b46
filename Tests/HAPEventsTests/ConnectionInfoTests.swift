import Bluetooth
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
        let controller = BluetoothAddress(wireBytes: [0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        let accessory = BluetoothAddress(wireBytes: [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0])
        let connection = ConnectionInfo(
            id: 1, transport: .bluetoothLE(connectionHandle: 0x40), controller: .bluetooth(controller), accessory: .bluetooth(accessory))
        #expect(connection.description == "#1 11:22:33:44:55:66 → C0:FF:EE:00:00:01")
        #expect(connection.transport.name == "ble")
        #expect(connection.accessory.endpoint == nil)
    }
}
