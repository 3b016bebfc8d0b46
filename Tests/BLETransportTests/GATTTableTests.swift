import Bluetooth
import HAPCatalog
import Testing
@testable import BLETransport

@Suite("GATT table from discovery")
struct GATTTableTests {
    static let lightbulb = BluetoothUUID(value: 0x0000_0043_0000_1000_8000_0026_BB76_5291)
    static let on = BluetoothUUID(value: 0x0000_0025_0000_1000_8000_0026_BB76_5291)

    /// A Lightbulb service at handles 0x10–0x16: its Service Instance ID characteristic (value
    /// 0x12) and On (value 0x14, instance-ID descriptor 0x15, CCCD 0x16).
    func discovered() -> GATTTable {
        var table = GATTTable(maximumAttributes: 64)
        table.learn(
            request: .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, groupType: GATTTable.primaryService),
            response: .readByGroupTypeResponse([.init(handle: 0x10, endGroupHandle: 0x16, value: Self.lightbulb.littleEndianBytes)]))
        table.learn(
            request: .readByTypeRequest(startHandle: 0x10, endHandle: 0x16, type: GATTTable.characteristicDeclaration),
            response: .readByTypeResponse([
                .init(handle: 0x11, value: [0x02, 0x12, 0x00] + GATTTable.serviceInstanceIDCharacteristic.littleEndianBytes),
                .init(handle: 0x13, value: [0x3A, 0x14, 0x00] + Self.on.littleEndianBytes),
            ]))
        table.learn(
            request: .findInformationRequest(startHandle: 0x15, endHandle: 0x16),
            response: .findInformationResponse([
                .init(handle: 0x15, type: GATTTable.characteristicInstanceIDDescriptor),
                .init(handle: 0x16, type: GATTTable.clientCharacteristicConfiguration),
            ]))
        table.learn(request: .readRequest(handle: 0x15), response: .readResponse(value: [0x32, 0x00]))
        table.learn(request: .readRequest(handle: 0x12), response: .readResponse(value: [0x30, 0x00]))
        return table
    }

    @Test("Services, characteristics, instance IDs and CCCDs are learnt from the responses and their requests")
    func discovery() {
        let table = discovered()
        #expect(table.services.map(\.type) == [Self.lightbulb] && table.services.first?.instanceID == 0x30)
        #expect(table.characteristic(valueHandle: 0x14)?.instanceID == 0x32)
        #expect(table.characteristic(valueHandle: 0x14)?.properties == 0x3A)
        #expect(table.configurationDescriptors == [0x16: 0x14])
        #expect(table.service(containing: 0x14)?.handle == 0x10)
    }

    @Test("Only HAP characteristics carry PDUs: not the Service Instance ID, not the SIG's own")
    func pduCarriers() {
        var table = discovered()
        table.learn(
            request: .readByTypeRequest(startHandle: 1, endHandle: 5, type: GATTTable.characteristicDeclaration),
            response: .readByTypeResponse([.init(handle: 0x02, value: [0x02, 0x03, 0x00, 0x00, 0x2A])]))
        #expect(table.hapType(valueHandle: 0x14) == HAPUUID(appleDefined: 0x25))
        #expect(table.hapType(valueHandle: 0x12) == nil)
        #expect(table.hapType(valueHandle: 0x03) == nil)
        #expect(table.hapType(valueHandle: 0x99) == nil)
    }

    @Test("A response to another request teaches nothing; a read of a non-descriptor is no instance ID")
    func mismatchedResponses() {
        var table = GATTTable(maximumAttributes: 64)
        table.learn(
            request: .readByTypeRequest(startHandle: 1, endHandle: 9, type: BluetoothUUID(shortForm: 0x2A00)),
            response: .readByTypeResponse([.init(handle: 0x11, value: [0x02, 0x12, 0x00, 0x00, 0x2A])]))
        #expect(table.characteristics.isEmpty)
        var known = discovered()
        known.learn(request: .readRequest(handle: 0x14), response: .readResponse(value: [0x01, 0x00]))
        #expect(known.characteristic(valueHandle: 0x14)?.instanceID == 0x32)
    }

    @Test("Discovery beyond the attribute limit is ignored and says so")
    func bounded() {
        var table = GATTTable(maximumAttributes: 1)
        table.learn(
            request: .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, groupType: GATTTable.primaryService),
            response: .readByGroupTypeResponse([
                .init(handle: 0x10, endGroupHandle: 0x16, value: Self.lightbulb.littleEndianBytes),
                .init(handle: 0x20, endGroupHandle: 0x26, value: Self.lightbulb.littleEndianBytes),
            ]))
        #expect(table.services.count == 1 && table.overflowed)
    }
}
