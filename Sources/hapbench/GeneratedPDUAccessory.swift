import HAPCatalog
import HAPPDU
import TLV8

/// A simulated accessory as HAP PDUs describe it, for the transports that carry PDUs (HAP-BLE
/// and HAP over CoAP): characteristics named by instance ID alone, typed by their GATT
/// presentation format. It holds an Accessory Information service and `zoneCount` zones, each a
/// lightbulb (On, Brightness) and a temperature sensor whose readings make the event traffic.
///
/// The CoAP database read (0x09) returns the whole database in one body; a HAP-BLE controller
/// reads each characteristic's signature (0x01) instead. Both are the same TLV items
/// (HomeKitADK `HAPBLEPDU+TLV.h`; aiohomekit `controller/coap/structs.py` `Pdu09Database`).
struct GeneratedPDUAccessory {
    struct Characteristic {
        let instanceID: UInt16
        let type: HAPUUID
        let properties: HAPCharacteristicProperties
        let format: GATTPresentationFormat
        /// Minimum and maximum in the characteristic's format, when it has a range.
        let validRange: [UInt8]?
    }

    struct Service {
        let instanceID: UInt16
        let type: HAPUUID
        let properties: HAPServiceProperties
        let characteristics: [Characteristic]
    }

    /// A zone's instance IDs: what the traffic reads, writes and hears of.
    struct Zone {
        let on: UInt16
        let brightness: UInt16
        let temperature: UInt16
    }

    let services: [Service]
    let zones: [Zone]

    // GATT presentation formats (Bluetooth Core Vol 3 Part G §3.3.3.5; the codes and units
    // aiohomekit `controller/coap/structs.py` maps: 0x01 bool, 0x10 int32, 0x14 float32,
    // 0x19 UTF-8; 0x27AD percentage, 0x272F celsius).
    static let boolFormat = GATTPresentationFormat(format: 0x01)
    static let stringFormat = GATTPresentationFormat(format: 0x19)
    static let percentageFormat = GATTPresentationFormat(format: 0x10, unit: 0x27AD)
    static let celsiusFormat = GATTPresentationFormat(format: 0x14, unit: 0x272F)

    // HAP-BLE characteristic properties (HomeKitADK `HAPBLECharacteristic+Signature`): the
    // secure read and write bits are what `perms` pr and pw come from.
    static let readOnly: HAPCharacteristicProperties = [.readable, .supportsSecureReads]
    static let controllable: HAPCharacteristicProperties = [.readable, .writable, .supportsSecureReads, .supportsSecureWrites, .notifiesEventsInConnectedState]
    static let sensor: HAPCharacteristicProperties = [.readable, .supportsSecureReads, .notifiesEventsInConnectedState]

    /// `firstInstanceID` leaves room for the transport's own services before these (HAP-BLE's
    /// pairing service and protocol information).
    init(zoneCount: Int, firstInstanceID: UInt16 = 1) {
        var next = firstInstanceID
        func take() -> UInt16 {
            defer { next += 1 }
            return next
        }
        let information = take()
        var services = [Service(instanceID: information, type: HAPUUID(appleDefined: 0x3E), properties: [], characteristics: [
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x14), properties: [.writable, .supportsSecureWrites], format: Self.boolFormat, validRange: nil),
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x20), properties: Self.readOnly, format: Self.stringFormat, validRange: nil),
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x21), properties: Self.readOnly, format: Self.stringFormat, validRange: nil),
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x23), properties: Self.readOnly, format: Self.stringFormat, validRange: nil),
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x30), properties: Self.readOnly, format: Self.stringFormat, validRange: nil),
            Characteristic(instanceID: take(), type: HAPUUID(appleDefined: 0x52), properties: Self.readOnly, format: Self.stringFormat, validRange: nil),
        ])]
        var zones: [Zone] = []
        for index in 0..<zoneCount {
            let lightbulb = take()
            let (on, brightness) = (take(), take())
            let sensorService = take()
            let zone = Zone(on: on, brightness: brightness, temperature: take())
            services.append(Service(instanceID: lightbulb, type: HAPUUID(appleDefined: 0x43), properties: index == 0 ? .primary : [], characteristics: [
                Characteristic(instanceID: zone.on, type: HAPUUID(appleDefined: 0x25), properties: Self.controllable, format: Self.boolFormat, validRange: nil),
                Characteristic(instanceID: zone.brightness, type: HAPUUID(appleDefined: 0x08), properties: Self.controllable, format: Self.percentageFormat,
                               validRange: Self.int32(0) + Self.int32(100)),
            ]))
            services.append(Service(instanceID: sensorService, type: HAPUUID(appleDefined: 0x8A), properties: [], characteristics: [
                Characteristic(instanceID: zone.temperature, type: HAPUUID(appleDefined: 0x11), properties: Self.sensor, format: Self.celsiusFormat,
                               validRange: Self.float32(0) + Self.float32(100)),
            ]))
            zones.append(zone)
        }
        self.services = services
        self.zones = zones
    }

    // MARK: Bodies

    /// The body of a database-read (0x09) response: every accessory, service and characteristic,
    /// lists separated by `00 00` (docs/coap.md "The database").
    var databaseBody: [UInt8] {
        var serviceItems: [[UInt8]] = []
        for service in services {
            var fields = TLV8Writer()
            fields.append(HAPPDUParameterType.serviceType, Self.uuidBytes(service.type))
            fields.append(HAPPDUParameterType.serviceInstanceID, integer: UInt64(service.instanceID), minimumByteCount: 2)
            fields.append(HAPPDUParameterType.serviceProperties, integer: UInt64(service.properties.rawValue), minimumByteCount: 2)
            fields.append(HAPPDUParameterType.databaseCharacteristics, Self.list(service.characteristics.map { characteristic in
                var items = TLV8Writer()
                items.append(HAPPDUParameterType.characteristicType, Self.uuidBytes(characteristic.type))
                items.append(HAPPDUParameterType.characteristicInstanceID, integer: UInt64(characteristic.instanceID), minimumByteCount: 2)
                Self.appendDescription(of: characteristic, to: &items)
                return items.bytes
            }, of: HAPPDUParameterType.databaseCharacteristic))
            serviceItems.append(fields.bytes)
        }
        var accessory = TLV8Writer()
        accessory.append(HAPPDUParameterType.databaseAccessoryInstanceID, integer: 1, minimumByteCount: 2)
        accessory.append(HAPPDUParameterType.databaseServices, Self.list(serviceItems, of: HAPPDUParameterType.databaseService))
        var body = TLV8Writer()
        body.append(HAPPDUParameterType.databaseAccessories, Self.list([accessory.bytes], of: HAPPDUParameterType.databaseAccessory))
        return body.bytes
    }

    /// The body of a HAP-Characteristic-Signature-Read (0x01) response: type, the service it
    /// belongs to, properties and format (HomeKitADK `HAPBLEProcedure.c`,
    /// `HAPBLECharacteristicSignatureReadResponse`).
    func signatureBody(of characteristic: Characteristic, in service: Service) -> [UInt8] {
        var items = TLV8Writer()
        items.append(HAPPDUParameterType.characteristicType, Self.uuidBytes(characteristic.type))
        items.append(HAPPDUParameterType.serviceInstanceID, integer: UInt64(service.instanceID), minimumByteCount: 2)
        items.append(HAPPDUParameterType.serviceType, Self.uuidBytes(service.type))
        Self.appendDescription(of: characteristic, to: &items)
        return items.bytes
    }

    /// Properties, presentation format and range: what both bodies say of a characteristic.
    private static func appendDescription(of characteristic: Characteristic, to items: inout TLV8Writer) {
        items.append(HAPPDUParameterType.characteristicProperties, integer: UInt64(characteristic.properties.rawValue), minimumByteCount: 2)
        items.append(HAPPDUParameterType.presentationFormat, characteristic.format.encoded)
        if let range = characteristic.validRange { items.append(HAPPDUParameterType.validRange, range) }
    }

    /// List entries, each one `container` item, separated by the empty item `00 00`.
    private static func list(_ entries: [[UInt8]], of container: TLV8Type) -> [UInt8] {
        var writer = TLV8Writer()
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.append(HAPPDUParameterType.databaseSeparator, []) }
            writer.append(container, entry)
        }
        return writer.bytes
    }

    /// A body holding one value: the TLV HAP-Param-Value (HomeKitADK `HAPBLEPDU+TLV.h`, 0x01).
    static func valueBody(_ value: [UInt8]) -> [UInt8] {
        var writer = TLV8Writer()
        writer.append(HAPPDUParameterType.value, value)
        return writer.bytes
    }

    // MARK: GATT values (little-endian, HomeKitADK `HAPBLECharacteristic+Value`)

    static func bool(_ value: Bool) -> [UInt8] { [value ? 1 : 0] }

    static func int32(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    static func float32(_ value: Float) -> [UInt8] {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
    }

    /// A UUID least-significant byte first (HomeKitADK `HAP.h` `HAPUUID`).
    static func uuidBytes(_ uuid: HAPUUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.low.littleEndian) { Array($0) } + withUnsafeBytes(of: uuid.high.littleEndian) { Array($0) }
    }
}
