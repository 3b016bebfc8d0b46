/// A pairing identifier (HAP: `kTLVType_Identifier`): UTF-8, a controller's UUID string or the
/// accessory's device ID `XX:XX:XX:XX:XX:XX`.
///
/// Kept as the bytes sent: iOS 16 compares pairing IDs case-sensitively, and a sender may put
/// anything on the wire.
public struct PairingIdentifier: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The identifier as text, or nil when the bytes are not valid UTF-8.
    public var string: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The text quoted and escaped (`"11:22:33:44:55:66"`), or a byte summary when it is not UTF-8.
    public var description: String {
        string?.debugDescription ?? ByteSummary.describe(bytes)
    }
}
