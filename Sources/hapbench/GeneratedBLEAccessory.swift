import HAPCatalog
import HAPCrypto
import HAPPDU

/// A simulated HAP-BLE accessory: its identity, random static address and GATT table. The table
/// holds the HAP Pairing service and the services of a `GeneratedPDUAccessory`; each HAP service
/// starts with its Service Instance ID characteristic, each HAP characteristic carries the
/// Characteristic Instance ID descriptor and, when it notifies, a Client Characteristic
/// Configuration descriptor (HAP: HAP-BLE attribute database; HomeKitADK
/// `HAPBLEAccessoryServer+Advertise`, aiohomekit `controller/ble/client.py`).
struct GeneratedBLEAccessory {
    struct Characteristic {
        let declarationHandle: UInt16
        var valueHandle: UInt16 { declarationHandle + 1 }
        var instanceIDDescriptor: UInt16 { declarationHandle + 2 }
        /// The Client Characteristic Configuration descriptor, when the characteristic indicates.
        var configurationDescriptor: UInt16? { pdu.properties.contains(.notifiesEventsInConnectedState) ? declarationHandle + 3 : nil }
        var lastHandle: UInt16 { configurationDescriptor ?? instanceIDDescriptor }
        let pdu: GeneratedPDUAccessory.Characteristic

        /// Core Vol 3 Part G §3.3.1.1: read 0x02, write 0x08, indicate 0x20.
        var gattProperties: UInt8 { configurationDescriptor == nil ? 0x0A : 0x2A }
    }

    struct Service {
        let handle: UInt16
        let endHandle: UInt16
        let pdu: GeneratedPDUAccessory.Service
        /// The value handle of the Service Instance ID characteristic (declared just before it).
        var instanceIDValueHandle: UInt16 { handle + 2 }
        let characteristics: [Characteristic]
    }

    // HAP: the Service Instance ID characteristic E604E95D-A759-4817-87D3-AA005083A0D1 and the
    // Characteristic Instance ID descriptor DC46F0FE-81D2-4616-B5D9-6ABDD796939A.
    static let serviceInstanceIDType = HAPUUID(high: 0xE604_E95D_A759_4817, low: 0x87D3_AA00_5083_A0D1)
    static let characteristicInstanceIDType = HAPUUID(high: 0xDC46_F0FE_81D2_4616, low: 0xB5D9_6ABD_D796_939A)

    /// The Pair Verify characteristic's place in the Pairing service.
    static let pairVerifyType = HAPUUID(appleDefined: 0x4E)

    let index: Int
    let deviceID: String
    let longTermKey: Ed25519.SigningKey
    /// The random static address, most significant byte first (`C0:…`: the top two bits set).
    let address: [UInt8]
    let device: GeneratedPDUAccessory
    let services: [Service]

    init(index: Int, zoneCount: Int, random: inout SeededRandom) throws(CryptoError) {
        self.index = index
        deviceID = GeneratedAccessory.deviceID(random.bytes(6))
        longTermKey = try Ed25519.SigningKey(seed: random.secret(Ed25519.seedByteCount))
        address = [0xE1, 0x00, 0x00, 0x00, UInt8(index >> 8), UInt8(index & 0xFF)]
        // HAP: the Pairing service (55): Pair Setup, Pair Verify, Pairing Features, Pairing
        // Pairings; TLV8 and uint8 values as GATT opaque structures and uint8 (HomeKitADK
        // `HAPAccessoryServer+Pairing`, `kHAPCharacteristicType_*`).
        let open: HAPCharacteristicProperties = [.readable, .writable]
        let pairing = GeneratedPDUAccessory.Service(instanceID: 1, type: HAPUUID(appleDefined: 0x55), properties: [], characteristics: [
            .init(instanceID: 2, type: HAPUUID(appleDefined: 0x4C), properties: open, format: Self.opaqueFormat, validRange: nil),
            .init(instanceID: 3, type: Self.pairVerifyType, properties: open, format: Self.opaqueFormat, validRange: nil),
            .init(instanceID: 4, type: HAPUUID(appleDefined: 0x4F), properties: .readable, format: GATTPresentationFormat(format: 0x04), validRange: nil),
            .init(instanceID: 5, type: HAPUUID(appleDefined: 0x50), properties: [.supportsSecureReads, .supportsSecureWrites], format: Self.opaqueFormat, validRange: nil),
        ])
        device = GeneratedPDUAccessory(zoneCount: zoneCount, firstInstanceID: 16)
        var next: UInt16 = 1
        var services: [Service] = []
        for service in [pairing] + device.services {
            let start = next
            next += 3  // the service declaration, then the Service Instance ID declaration and value
            var characteristics: [Characteristic] = []
            for characteristic in service.characteristics {
                let placed = Characteristic(declarationHandle: next, pdu: characteristic)
                characteristics.append(placed)
                next = placed.lastHandle + 1
            }
            services.append(Service(handle: start, endHandle: next - 1, pdu: service, characteristics: characteristics))
        }
        self.services = services
    }

    /// GATT 0x1B, an opaque structure: how HAP-BLE declares TLV8 values.
    static let opaqueFormat = GATTPresentationFormat(format: 0x1B)

    /// `E1:00:00:00:00:07/random`, as key logs and hapscope write Bluetooth addresses.
    var addressText: String { GeneratedAccessory.deviceID(address) + "/random" }

    /// The address as HCI sends it, least significant byte first.
    var wireAddress: [UInt8] { address.reversed() }

    /// The Accessory Information strings (HAP: Manufacturer 20, Model 21, Name 23, Serial Number
    /// 30, Firmware Revision 52), long enough that small fragments cut their reads.
    func text(of type: HAPUUID) -> String {
        switch type {
        case HAPUUID(appleDefined: 0x20): "hapscope benchmark accessories"
        case HAPUUID(appleDefined: 0x21): "hapbench BLE lamp, \(device.zones.count) zones"
        case HAPUUID(appleDefined: 0x23): "Bench Lamp \(deviceID)"
        case HAPUUID(appleDefined: 0x30): "HSB-\(deviceID)"
        default: "1.0.0"
        }
    }

    var pairVerify: Characteristic {
        services[0].characteristics[1]
    }

    /// The characteristic with instance ID `iid`, and its service.
    func characteristic(_ iid: UInt16) -> (Characteristic, Service)? {
        for service in services {
            if let found = service.characteristics.first(where: { $0.pdu.instanceID == iid }) { return (found, service) }
        }
        return nil
    }
}
