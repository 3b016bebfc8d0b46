import HAPCatalog
import HAPJSON
import HAPPDU

/// The accessory database of a HAP-BLE accessory, as its GATT table and signature reads tell it,
/// written as the `/accessories` document HAP over IP serves so that every consumer reads one
/// model (HAP: HAP-BLE attribute database; aiohomekit controller/ble/controller.py builds the
/// same document from the same reads).
///
/// A HAP-BLE accessory holds one accessory, aid 1. A service appears once its Service Instance
/// ID was read, a characteristic once its Characteristic Instance ID was; the characteristic's
/// format and permissions come from its signature read (HAP-Characteristic-Signature-Read) when
/// the capture holds one, otherwise from the catalogue. Values are not in it: reads and writes
/// are `characteristic` events.
enum BLEAccessoryDatabase {
    static func document(
        table: GATTTable, signatures: [UInt16: HAPCharacteristicSignature], serviceSignatures: [UInt16: HAPServiceSignature]
    ) -> String? {
        var services: [String] = []
        for service in table.services {
            guard let serviceIID = service.instanceID else { continue }
            var characteristics: [String] = []
            for characteristic in table.characteristics
            where service.handle < characteristic.valueHandle && characteristic.valueHandle <= service.endHandle {
                guard let iid = characteristic.instanceID, let type = table.hapType(valueHandle: characteristic.valueHandle) else { continue }
                let signature = signatures[iid]
                let format = signature?.presentationFormat?.characteristicFormat ?? HAPCatalog.characteristic(type)?.format
                var members = ["\"iid\":\(iid)", "\"type\":\"\(type)\""]
                let permissions = signature?.properties.map(Self.permissions) ?? HAPCatalog.characteristic(type)?.permissions.names ?? []
                members.append("\"perms\":[" + permissions.map { "\"\($0)\"" }.joined(separator: ",") + "]")
                if let format { members.append("\"format\":\"\(format.rawValue)\"") }
                characteristics.append("{" + members.joined(separator: ",") + "}")
            }
            var members = ["\"iid\":\(serviceIID)", "\"type\":\"\(HAPUUID(service.type))\""]
            if let signature = serviceSignatures[serviceIID] {
                if signature.properties?.contains(.primary) == true { members.append("\"primary\":true") }
                if signature.properties?.contains(.hidden) == true { members.append("\"hidden\":true") }
                if !signature.linkedServices.isEmpty {
                    members.append("\"linked\":[" + signature.linkedServices.map(String.init).joined(separator: ",") + "]")
                }
            }
            members.append("\"characteristics\":[" + characteristics.joined(separator: ",") + "]")
            services.append("{" + members.joined(separator: ",") + "}")
        }
        guard !services.isEmpty else { return nil }
        return "{\"accessories\":[{\"aid\":1,\"services\":[" + services.joined(separator: ",") + "]}]}"
    }

    /// The HAP-over-IP permissions of HAP-BLE properties. BLE tells a read or write open to
    /// anyone (0x0001, 0x0002: the pairing characteristics) from one that needs a session
    /// (0x0010, 0x0020); IP has only `pr` and `pw`, so either makes them.
    static func permissions(_ properties: HAPCharacteristicProperties) -> [String] {
        var result: [String] = []
        if !properties.isDisjoint(with: [.readable, .supportsSecureReads]) { result.append("pr") }
        if !properties.isDisjoint(with: [.writable, .supportsSecureWrites]) { result.append("pw") }
        return result + properties.permissions.filter { $0 != "pr" && $0 != "pw" }
    }
}
