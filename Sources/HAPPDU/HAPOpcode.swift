/// The opcode of a HAP PDU request (HAP: HAP-BLE Opcodes; HomeKitADK `HAPPDU.h`), with the
/// opcodes aiohomekit sends over CoAP (`controller/coap/pdu.py`, whose names are
/// `UNK_09_READ_GATT`, `UNK_0B_SUBSCRIBE`, `UNK_0C_UNSUBSCRIBE`: Apple has not published them).
public struct HAPOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let characteristicSignatureRead = HAPOpcode(rawValue: 0x01)
    public static let characteristicWrite = HAPOpcode(rawValue: 0x02)
    public static let characteristicRead = HAPOpcode(rawValue: 0x03)
    public static let characteristicTimedWrite = HAPOpcode(rawValue: 0x04)
    public static let characteristicExecuteWrite = HAPOpcode(rawValue: 0x05)
    public static let serviceSignatureRead = HAPOpcode(rawValue: 0x06)
    public static let characteristicConfiguration = HAPOpcode(rawValue: 0x07)
    public static let protocolConfiguration = HAPOpcode(rawValue: 0x08)
    /// CoAP: the whole attribute database (IID 0, empty body; aiohomekit `UNK_09_READ_GATT`).
    public static let databaseRead = HAPOpcode(rawValue: 0x09)
    /// CoAP: subscribe to events of the characteristic named by the IID (`UNK_0B_SUBSCRIBE`).
    public static let subscribe = HAPOpcode(rawValue: 0x0B)
    /// CoAP: unsubscribe (`UNK_0C_UNSUBSCRIBE`).
    public static let unsubscribe = HAPOpcode(rawValue: 0x0C)
    /// Software authentication (HAP: Software Authentication Procedure).
    public static let token = HAPOpcode(rawValue: 0x10)
    public static let tokenUpdate = HAPOpcode(rawValue: 0x11)
    public static let info = HAPOpcode(rawValue: 0x12)

    /// Whether the IID names a service rather than a characteristic (HomeKitADK
    /// `HAPBLEPDUOpcodeIsServiceOperation`).
    public var isServiceOperation: Bool {
        self == .serviceSignatureRead || self == .protocolConfiguration
    }

    public var name: String? {
        switch self {
        case .characteristicSignatureRead: "HAP-Characteristic-Signature-Read"
        case .characteristicWrite: "HAP-Characteristic-Write"
        case .characteristicRead: "HAP-Characteristic-Read"
        case .characteristicTimedWrite: "HAP-Characteristic-Timed-Write"
        case .characteristicExecuteWrite: "HAP-Characteristic-Execute-Write"
        case .serviceSignatureRead: "HAP-Service-Signature-Read"
        case .characteristicConfiguration: "HAP-Characteristic-Configuration"
        case .protocolConfiguration: "HAP-Protocol-Configuration"
        case .databaseRead: "Database-Read (CoAP)"
        case .subscribe: "Subscribe (CoAP)"
        case .unsubscribe: "Unsubscribe (CoAP)"
        case .token: "HAP-Token"
        case .tokenUpdate: "HAP-Token-Update"
        case .info: "HAP-Info"
        default: nil
        }
    }

    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16)
        return name.map { "\($0) (\(hex))" } ?? "HAP opcode \(hex)"
    }
}
