import Bluetooth
import HAPCatalog

/// The accessory's attribute table as one connection's GATT discovery revealed it: services
/// with their handle ranges, characteristics with their value handles, and the HAP instance IDs
/// read from the Characteristic Instance ID descriptors and Service Instance ID characteristics.
///
/// It is learnt from ATT responses and the requests they answer (Core Vol 3 Part G §4: Read By
/// Group Type for primary services, Read By Type for characteristic declarations, Find
/// Information for descriptors, Read for the instance IDs). Bounded by `maximumAttributes`:
/// discovery past it is ignored and reported once by the caller.
struct GATTTable {
    struct Service: Equatable {
        let handle: UInt16
        let endHandle: UInt16
        let type: BluetoothUUID
        /// HAP: Service Instance ID characteristic.
        var instanceID: UInt16?
    }

    struct Characteristic: Equatable {
        let declarationHandle: UInt16
        let valueHandle: UInt16
        let type: BluetoothUUID
        let properties: UInt8
        /// HAP: Characteristic Instance ID descriptor.
        var instanceID: UInt16?
    }

    // HAP: the Characteristic Instance ID descriptor DC46F0FE-81D2-4616-B5D9-6ABDD796939A, a
    // little-endian IID (aiohomekit controller/ble/client.py, `get_characteristic_iid`).
    static let characteristicInstanceIDDescriptor = BluetoothUUID(value: 0xDC46_F0FE_81D2_4616_B5D9_6ABD_D796_939A)
    // HAP: the Service Instance ID characteristic E604E95D-A759-4817-87D3-AA005083A0D1 of every
    // HAP service (aiohomekit controller/ble, SERVICE_INSTANCE_ID).
    static let serviceInstanceIDCharacteristic = BluetoothUUID(value: 0xE604_E95D_A759_4817_87D3_AA00_5083_A0D1)
    // Core Vol 3 Part G §3.1, §3.3: the GATT declarations.
    static let primaryService = BluetoothUUID(shortForm: 0x2800)
    static let characteristicDeclaration = BluetoothUUID(shortForm: 0x2803)
    // Core Vol 3 Part G §3.3.3.3: the Client Characteristic Configuration descriptor.
    static let clientCharacteristicConfiguration = BluetoothUUID(shortForm: 0x2902)

    // Every change counts as a revision (`revision`).
    private(set) var services: [Service] = [] { didSet { revision += 1 } }
    private(set) var characteristics: [Characteristic] = [] { didSet { revision += 1 } }
    /// Descriptor handles of the Characteristic Instance ID descriptors, not yet read.
    private var instanceIDDescriptors: Set<UInt16> = []
    /// Client Characteristic Configuration descriptors, by handle, with the value handle of
    /// the characteristic each configures.
    private(set) var configurationDescriptors: [UInt16: UInt16] = [:]
    let maximumAttributes: Int
    /// Whether discovery went past `maximumAttributes` (and the excess was ignored).
    private(set) var overflowed = false
    /// The handles whose primary services, and whose characteristic declarations, discovery has
    /// listed: what this connection read, so that only that is compared with another's.
    private(set) var serviceCoverage: HandleCoverage { didSet { revision += 1 } }
    private(set) var characteristicCoverage: HandleCoverage { didSet { revision += 1 } }
    /// Counts the changes to the services, the characteristics (their instance IDs too) and what
    /// discovery covered: an unchanged revision, an unchanged table.
    private(set) var revision = 0

    init(maximumAttributes: Int) {
        self.maximumAttributes = maximumAttributes
        serviceCoverage = HandleCoverage(maximumRanges: maximumAttributes)
        characteristicCoverage = HandleCoverage(maximumRanges: maximumAttributes)
    }

    private var attributeCount: Int {
        services.count + characteristics.count + instanceIDDescriptors.count + configurationDescriptors.count
    }

    private mutating func admit() -> Bool {
        guard attributeCount < maximumAttributes else {
            overflowed = true
            return false
        }
        return true
    }

    /// Learns from one response and the request it answers.
    mutating func learn(request: ATTPDU, response: ATTPDU) {
        switch (request, response) {
        case (.readByGroupTypeRequest(let start, _, let group), .readByGroupTypeResponse(let entries)) where group.value == Self.primaryService.value:
            for entry in entries where !services.contains(where: { $0.handle == entry.handle }) {
                guard entry.value.count == 2 || entry.value.count == 16, admit(),
                      let type = try? BluetoothUUID(littleEndianBytes: entry.value) else { continue }
                services.append(Service(handle: entry.handle, endHandle: entry.endGroupHandle, type: type))
            }
            // Core Vol 3 Part G §4.4.1: the next request starts after the last group listed.
            if let last = entries.map(\.endGroupHandle).max() { serviceCoverage.insert(start, last) }
        case (.readByTypeRequest(let start, _, let type), .readByTypeResponse(let entries)) where type.value == Self.characteristicDeclaration.value:
            // Core Vol 3 Part G §3.3.1: properties (1), value handle (2), UUID (2 or 16).
            for entry in entries where !characteristics.contains(where: { $0.declarationHandle == entry.handle }) {
                let value = entry.value
                guard value.count == 5 || value.count == 19, admit(),
                      let uuid = try? BluetoothUUID(littleEndianBytes: Array(value[3...])) else { continue }
                let valueHandle = UInt16(value[1]) | UInt16(value[2]) << 8
                characteristics.append(Characteristic(
                    declarationHandle: entry.handle, valueHandle: valueHandle, type: uuid, properties: value[0]))
            }
            // Core Vol 3 Part G §4.6.1: the next request starts after the last declaration listed.
            if let last = entries.map(\.handle).max() { characteristicCoverage.insert(start, last) }
        case (.readByGroupTypeRequest(let start, let end, let group), .errorResponse(_, _, .attributeNotFound))
        where group.value == Self.primaryService.value:
            // Core Vol 3 Part G §4.4.1: Attribute Not Found ends the discovery: none in the range.
            serviceCoverage.insert(start, end)
        case (.readByTypeRequest(let start, let end, let type), .errorResponse(_, _, .attributeNotFound))
        where type.value == Self.characteristicDeclaration.value:
            characteristicCoverage.insert(start, end)
        case (.findInformationRequest, .findInformationResponse(let entries)):
            for entry in entries {
                if entry.type.value == Self.characteristicInstanceIDDescriptor.value {
                    guard !instanceIDDescriptors.contains(entry.handle), admit() else { continue }
                    instanceIDDescriptors.insert(entry.handle)
                } else if entry.type.value == Self.clientCharacteristicConfiguration.value,
                          configurationDescriptors[entry.handle] == nil,
                          let owner = characteristicIndex(owningDescriptor: entry.handle), admit() {
                    configurationDescriptors[entry.handle] = characteristics[owner].valueHandle
                }
            }
        case (.readRequest(let handle), .readResponse(let value)):
            learnInstanceID(read: handle, value: value)
        default:
            break
        }
    }

    /// An instance ID read: a 16-bit little-endian integer (HAP: IIDs are uint16 over BLE).
    private mutating func learnInstanceID(read handle: UInt16, value: [UInt8]) {
        guard value.count == 2 else { return }
        let iid = UInt16(value[0]) | UInt16(value[1]) << 8
        if instanceIDDescriptors.contains(handle), let index = characteristicIndex(owningDescriptor: handle) {
            characteristics[index].instanceID = iid
        } else if let index = characteristics.firstIndex(where: { $0.valueHandle == handle && $0.type.value == Self.serviceInstanceIDCharacteristic.value }),
                  let service = serviceIndex(containing: characteristics[index].valueHandle) {
            services[service].instanceID = iid
        }
    }

    /// The characteristic a descriptor belongs to: the last declared before it.
    private func characteristicIndex(owningDescriptor handle: UInt16) -> Int? {
        characteristics.indices.filter { characteristics[$0].valueHandle < handle }
            .max { characteristics[$0].valueHandle < characteristics[$1].valueHandle }
    }

    private func serviceIndex(containing handle: UInt16) -> Int? {
        services.firstIndex { $0.handle <= handle && handle <= $0.endHandle }
    }

    /// The characteristic whose value has `handle`.
    func characteristic(valueHandle handle: UInt16) -> Characteristic? {
        characteristics.first { $0.valueHandle == handle }
    }

    /// The service holding the attribute at `handle`.
    func service(containing handle: UInt16) -> Service? {
        serviceIndex(containing: handle).map { services[$0] }
    }

    /// The HAP type of the characteristic whose value has `handle`, when that value carries HAP
    /// PDUs: every characteristic but the Bluetooth SIG's own (GAP, GATT) and the Service
    /// Instance ID, which is read as a bare integer (HAP: HAP-BLE procedures run on every HAP
    /// characteristic; HomeKitADK HAPBLEProcedure.c).
    func hapType(valueHandle handle: UInt16) -> HAPUUID? {
        guard let characteristic = characteristic(valueHandle: handle), characteristic.type.shortForm == nil,
              characteristic.type.value != Self.serviceInstanceIDCharacteristic.value else { return nil }
        return HAPUUID(characteristic.type)
    }
}

extension HAPUUID {
    /// The HAP type of a GATT UUID: 128-bit UUIDs compare in full, as HAP writes them.
    init(_ uuid: BluetoothUUID) {
        self.init(high: UInt64(truncatingIfNeeded: uuid.value >> 64), low: UInt64(truncatingIfNeeded: uuid.value))
    }
}
