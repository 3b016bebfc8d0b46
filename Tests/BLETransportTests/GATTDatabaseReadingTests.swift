import Bluetooth
import HAPCatalog
import Testing
@testable import BLETransport

/// Two connections' readings of one accessory's GATT database are compared only where both
/// read: a controller that cached the database discovers or reads less, and that is no change.
@Suite("GATTDatabaseReading")
struct GATTDatabaseReadingTests {
    static let lightbulb = BluetoothUUID(value: 0x0000_0043_0000_1000_8000_0026_BB76_5291)
    static let battery = BluetoothUUID(value: 0x0000_0096_0000_1000_8000_0026_BB76_5291)
    static let on = BluetoothUUID(value: 0x0000_0025_0000_1000_8000_0026_BB76_5291)
    static let brightness = BluetoothUUID(value: 0x0000_0008_0000_1000_8000_0026_BB76_5291)

    /// What one connection's discovery learns: the services listed from handle 1 to the end,
    /// then (when `characteristics` is given) the declarations in 0x10–0x1F, then the instance IDs
    /// read (`instanceIDs`: descriptor handle → IID).
    static func table(
        services: [(handle: UInt16, end: UInt16, type: BluetoothUUID)], characteristics: [(handle: UInt16, type: BluetoothUUID)]? = nil,
        instanceIDs: [UInt16: UInt16] = [:]
    ) -> GATTTable {
        var table = GATTTable(maximumAttributes: 64)
        let last = services.map(\.end).max() ?? 0
        table.learn(
            request: .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, groupType: GATTTable.primaryService),
            response: .readByGroupTypeResponse(services.map { .init(handle: $0.handle, endGroupHandle: $0.end, value: $0.type.littleEndianBytes) }))
        table.learn(
            request: .readByGroupTypeRequest(startHandle: last + 1, endHandle: 0xFFFF, groupType: GATTTable.primaryService),
            response: .errorResponse(requestOpcode: .readByGroupTypeRequest, handle: last + 1, error: .attributeNotFound))
        if let characteristics {
            table.learn(
                request: .readByTypeRequest(startHandle: 0x10, endHandle: 0x1F, type: GATTTable.characteristicDeclaration),
                response: .readByTypeResponse(characteristics.map {
                    .init(handle: $0.handle, value: [0x3A, UInt8($0.handle + 1), 0x00] + $0.type.littleEndianBytes)
                }))
            let end = characteristics.map(\.handle).max() ?? 0x10
            table.learn(
                request: .readByTypeRequest(startHandle: end + 1, endHandle: 0x1F, type: GATTTable.characteristicDeclaration),
                response: .errorResponse(requestOpcode: .readByTypeRequest, handle: end + 1, error: .attributeNotFound))
            for (handle, _) in characteristics {
                table.learn(request: .findInformationRequest(startHandle: handle + 2, endHandle: handle + 2),
                            response: .findInformationResponse([.init(handle: handle + 2, type: GATTTable.characteristicInstanceIDDescriptor)]))
            }
        }
        for (descriptor, iid) in instanceIDs {
            table.learn(request: .readRequest(handle: descriptor), response: .readResponse(value: [UInt8(iid & 0xFF), UInt8(iid >> 8)]))
        }
        return table
    }

    static func reading(_ table: GATTTable) -> GATTDatabaseReading { GATTDatabaseReading(table: table, signatures: [:]) }

    static let lamp = [(handle: UInt16(0x10), end: UInt16(0x1F), type: lightbulb)]
    static let lampCharacteristics = [(handle: UInt16(0x11), type: on), (handle: UInt16(0x14), type: brightness)]
    static let full = reading(table(services: lamp, characteristics: lampCharacteristics, instanceIDs: [0x13: 50, 0x16: 51]))

    @Test("The same database read again is no change")
    func unchanged() {
        #expect(Self.full.changes(since: Self.full).isEmpty)
    }

    @Test("A later connection that discovered only the services, or read no instance ID, is no change")
    func partialReadings() {
        let servicesOnly = Self.reading(Self.table(services: Self.lamp))
        #expect(servicesOnly.changes(since: Self.full).isEmpty)
        #expect(Self.full.changes(since: servicesOnly).isEmpty)
        let noInstanceIDs = Self.reading(Self.table(services: Self.lamp, characteristics: Self.lampCharacteristics))
        #expect(noInstanceIDs.changes(since: Self.full).isEmpty)
        let nothing = Self.reading(GATTTable(maximumAttributes: 64))
        #expect(nothing.isEmpty && nothing.changes(since: Self.full).isEmpty)
    }

    @Test("A service listed after the others, where both connections' discovery reached, was added")
    func serviceAdded() {
        let later = Self.reading(Self.table(services: Self.lamp + [(0x20, 0x28, Self.battery)], characteristics: Self.lampCharacteristics))
        #expect(later.changes(since: Self.full).map(\.summary) == ["service 96 (Battery) at handles 0x0020–0x0028 added"])
        #expect(Self.full.changes(since: later).map(\.summary) == ["service 96 (Battery) at handles 0x0020–0x0028 removed"])
    }

    @Test("A characteristic gone, or one whose instance ID both read differs, is a change")
    func characteristicChanges() {
        let removed = Self.reading(Self.table(services: Self.lamp, characteristics: [(0x11, Self.on)]))
        #expect(removed.changes(since: Self.full).count == 1)
        #expect(removed.changes(since: Self.full).first?.summary.hasSuffix("(Brightness) at handle 0x0015, iid 51 removed") == true)
        let renumbered = Self.reading(Self.table(services: Self.lamp, characteristics: Self.lampCharacteristics, instanceIDs: [0x13: 50, 0x16: 60]))
        #expect(renumbered.changes(since: Self.full).map(\.summary) == [
            "characteristic 8 (Brightness) at handle 0x0015, iid 51 became characteristic 8 (Brightness) at handle 0x0015, iid 60",
        ])
    }

    @Test("Merged, a partial reading takes over only what it read, and keeps the instance IDs it did not read")
    func merge() {
        var merged = Self.full
        merged.merge(Self.reading(Self.table(services: Self.lamp + [(0x20, 0x28, Self.battery)])))
        #expect(merged.services.keys.sorted() == [0x10, 0x20])
        #expect(merged.characteristics.values.compactMap(\.instanceID).sorted() == [50, 51])
        var renewed = Self.full
        renewed.merge(Self.reading(Self.table(services: Self.lamp, characteristics: Self.lampCharacteristics)))
        #expect(renewed == Self.full)
    }

    @Test("Coverage joins ranges that touch and stays within its bound")
    func coverage() {
        var coverage = HandleCoverage(maximumRanges: 2)
        coverage.insert(1, 5)
        coverage.insert(6, 9)
        coverage.insert(20, 30)
        coverage.insert(40, 50)
        #expect(coverage.ranges == [1...9, 20...30])
        #expect(coverage.contains(7) && !coverage.contains(45) && !coverage.contains(10))
    }
}
