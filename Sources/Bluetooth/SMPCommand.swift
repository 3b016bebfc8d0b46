import WireParsing

/// A Security Manager command (CID 0x0006, Core Vol 3 Part H §3.3): code (1) and data. The
/// pairing feature exchange and its failure are decoded; the rest (confirm and random values,
/// keys) is kept as bytes, as the analysis only needs to know that LE pairing happened.
public struct SMPCommand: Hashable, Sendable {
    public var code: Code
    public var data: [UInt8]
    public var content: Content

    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let pairingRequest = Code(rawValue: 0x01)
        public static let pairingResponse = Code(rawValue: 0x02)
        public static let pairingConfirm = Code(rawValue: 0x03)
        public static let pairingRandom = Code(rawValue: 0x04)
        public static let pairingFailed = Code(rawValue: 0x05)
        public static let encryptionInformation = Code(rawValue: 0x06)
        public static let centralIdentification = Code(rawValue: 0x07)
        public static let identityInformation = Code(rawValue: 0x08)
        public static let identityAddressInformation = Code(rawValue: 0x09)
        public static let signingInformation = Code(rawValue: 0x0A)
        public static let securityRequest = Code(rawValue: 0x0B)
        public static let pairingPublicKey = Code(rawValue: 0x0C)
        public static let pairingDHKeyCheck = Code(rawValue: 0x0D)
        public static let keypressNotification = Code(rawValue: 0x0E)

        public var description: String {
            let names = [
                "Pairing Request", "Pairing Response", "Pairing Confirm", "Pairing Random", "Pairing Failed",
                "Encryption Information", "Central Identification", "Identity Information", "Identity Address Information",
                "Signing Information", "Security Request", "Pairing Public Key", "Pairing DHKey Check", "Keypress Notification",
            ]
            return (1 ... names.count).contains(Int(rawValue)) ? names[Int(rawValue) - 1] : "SMP code 0x\(String(rawValue, radix: 16))"
        }
    }

    public enum Content: Hashable, Sendable {
        /// Pairing Request / Response: IO capability, OOB data flag, AuthReq (bit 0–1 bonding,
        /// 2 MITM, 3 Secure Connections, 4 keypress), maximum key size, key distribution.
        case pairingFeatures(ioCapability: UInt8, oobDataFlag: UInt8, authenticationRequirements: UInt8, maximumKeySize: UInt8,
                             initiatorKeyDistribution: UInt8, responderKeyDistribution: UInt8)
        /// Pairing Failed: the reason (Core Vol 3 Part H §3.5.5).
        case pairingFailed(reason: UInt8)
        /// Security Request: AuthReq.
        case securityRequest(authenticationRequirements: UInt8)
        case other
    }

    /// Reads the payload of an SMP frame.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        code = Code(rawValue: try cursor.readUInt8("an SMP command code"))
        let dataOffset = cursor.offset
        let layer = cursor.layer
        var data = ByteCursor(cursor.readRemaining(), layer: layer, baseOffset: dataOffset)
        self.data = Array(data.bytes)
        switch code {
        case .pairingRequest, .pairingResponse:
            guard data.remainingCount == 6 else {
                throw data.malformed("6 bytes of \(code), found \(data.remainingCount)")
            }
            content = .pairingFeatures(
                ioCapability: try data.readUInt8(), oobDataFlag: try data.readUInt8(), authenticationRequirements: try data.readUInt8(),
                maximumKeySize: try data.readUInt8(), initiatorKeyDistribution: try data.readUInt8(),
                responderKeyDistribution: try data.readUInt8())
        case .pairingFailed:
            guard data.remainingCount == 1 else { throw data.malformed("1 byte of Pairing Failed, found \(data.remainingCount)") }
            content = .pairingFailed(reason: try data.readUInt8())
        case .securityRequest:
            guard data.remainingCount == 1 else { throw data.malformed("1 byte of Security Request, found \(data.remainingCount)") }
            content = .securityRequest(authenticationRequirements: try data.readUInt8())
        default:
            content = .other
        }
    }
}
