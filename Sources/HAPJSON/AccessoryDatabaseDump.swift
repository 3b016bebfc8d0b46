import HAPCatalog
import WireParsing

/// An accessory database saved to a file by a tool, not captured: `hapscope audit dump.json`.
///
/// A dump is decoded like an `/accessories` body, after reading from its shape where it came
/// from (`Origin`), which decides how its `tlv8` and `data` values are written and which rules
/// of one transport apply.
public struct AccessoryDatabaseDump: Sendable {
    public let database: AccessoryDatabase
    public let origin: Origin

    /// Where a dump comes from, as its shape tells.
    ///
    /// A controller that reads an accessory over Bluetooth LE or Thread builds the database from
    /// the accessory's attribute database, and lists what HAP over IP never does: the Service
    /// Signature characteristic (`A5`; ADK `HAPIPCharacteristicIsSupported` leaves it out of
    /// `/accessories`) and the Pairing service (`55`: HAP over IP pairs through its endpoints).
    /// aiohomekit, which saves such dumps (Home Assistant's fixtures), writes their binary values
    /// in hex (`aiohomekit/controller/ble/values.py` `from_bytes`); HAP over IP and dumps of it
    /// use base64.
    public struct Origin: Hashable, Sendable, CustomStringConvertible {
        public let transport: DatabaseTransport
        public let binaryValues: BinaryValueEncoding
        /// What in the dump says so: `Service Signature characteristics (A5), e.g. 1.18`.
        public let evidence: String
        /// Values the dump's encoding leaves in doubt, when there are any.
        public let ambiguity: String?

        /// `read over Bluetooth LE or Thread (Service Signature characteristics (A5), e.g. 1.18):
        /// tlv8 and data values in hex`.
        public var description: String {
            let read = transport == .ip ? "an accessory over IP" : "read over \(transport)"
            return "\(read) (\(evidence)): tlv8 and data values in \(binaryValues)" + (ambiguity.map { "; \($0)" } ?? "")
        }
    }

    /// Parses a dump, finds its origin and decodes it. Throws as `AccessoryDatabase` does: for
    /// bytes that are not JSON, or JSON with no list of accessories.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        // The origin decides how the database's values are decoded, so the dump is read twice.
        origin = Self.origin(of: try JSONDocument(bytes: bytes, limits: limits).root)
        database = try AccessoryDatabase(bytes: bytes, limits: limits, binaryValues: origin.binaryValues)
    }

    // MARK: Reading the shape

    private static let pairingService = HAPUUID(appleDefined: 0x55)

    static func origin(of root: JSONValue) -> Origin {
        let accessories = root["accessories"]?.arrayValue ?? root.arrayValue ?? []
        var bluetoothSigns: [String] = []
        var binaryTexts: [String] = []
        for accessory in accessories {
            let aid = accessory["aid"].map { $0.stringValue ?? $0.description } ?? "?"
            for service in accessory["services"]?.arrayValue ?? [] {
                if uuid(service) == pairingService, bluetoothSigns.count < 2 {
                    bluetoothSigns.append("the Pairing service (55) at \(aid).\(number(service["iid"]))")
                }
                for characteristic in service["characteristics"]?.arrayValue ?? [] {
                    if uuid(characteristic) == ServiceDefinition.serviceSignature, bluetoothSigns.count < 2 {
                        bluetoothSigns.append("a Service Signature characteristic (A5) at \(aid).\(number(characteristic["iid"]))")
                    }
                    if let format = characteristic["format"]?.stringValue, format == "data" || format == "tlv8",
                       let text = characteristic["value"]?.stringValue, !text.isEmpty {
                        binaryTexts.append(text)
                    }
                }
            }
        }
        let readAsHex = binaryTexts.filter { Hex.decode($0) != nil }.count
        let readAsBase64 = binaryTexts.filter { Base64.decode($0) != nil }.count
        if !bluetoothSigns.isEmpty {
            let notHex = binaryTexts.count - readAsHex
            return Origin(
                transport: .bluetoothOrThread, binaryValues: .hex, evidence: bluetoothSigns.joined(separator: ", "),
                ambiguity: notHex == 0 ? nil : "\(notHex) of its \(binaryTexts.count) binary values are not hex: the tool "
                    + "that wrote it may have used base64, as for HAP over IP")
        }
        let ambiguity = !binaryTexts.isEmpty && readAsHex == binaryTexts.count && readAsBase64 == binaryTexts.count
            ? "all \(binaryTexts.count) binary values read as hex as well as base64; taken as base64, as HAP over IP sends them"
            : nil
        return Origin(
            transport: .ip, binaryValues: .base64,
            evidence: "no Service Signature characteristic or Pairing service, which only Bluetooth LE and Thread list",
            ambiguity: ambiguity)
    }

    private static func uuid(_ element: JSONValue) -> HAPUUID? {
        element["type"]?.stringValue.flatMap { HAPUUID($0) }
    }

    private static func number(_ value: JSONValue?) -> String {
        value.map { $0.stringValue ?? $0.description } ?? "?"
    }
}
