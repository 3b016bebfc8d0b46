/// The status of a HAP PDU response (HAP: HAP Status Codes; HomeKitADK `HAPBLEPDUStatus`).
public struct HAPPDUStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HAPPDUStatus(rawValue: 0x00)
    public static let unsupportedPDU = HAPPDUStatus(rawValue: 0x01)
    public static let maxProcedures = HAPPDUStatus(rawValue: 0x02)
    public static let insufficientAuthorization = HAPPDUStatus(rawValue: 0x03)
    public static let invalidInstanceID = HAPPDUStatus(rawValue: 0x04)
    public static let insufficientAuthentication = HAPPDUStatus(rawValue: 0x05)
    public static let invalidRequest = HAPPDUStatus(rawValue: 0x06)

    public var isKnown: Bool { rawValue <= 0x06 }

    public var name: String? {
        let names = [
            "Success", "Unsupported-PDU", "Max-Procedures", "Insufficient Authorization", "Invalid Instance ID",
            "Insufficient Authentication", "Invalid Request",
        ]
        return isKnown ? names[Int(rawValue)] : nil
    }

    public var description: String {
        name.map { "\($0) (\(rawValue))" } ?? "HAP status \(rawValue)"
    }
}
