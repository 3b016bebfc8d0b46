/// Why an accessory refused a pairing step (HAP: `kTLVType_Error`, HomeKitADK `HAPPairingError`).
///
/// Any byte can arrive; values HAP does not define are kept so reports can show them.
public struct PairingErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A generic failure, such as a storage error or an Add Pairing that conflicts with a stored key.
    public static let unknown = PairingErrorCode(rawValue: 1)
    /// Wrong setup code, bad signature, failed decryption, unknown or non-admin controller.
    public static let authentication = PairingErrorCode(rawValue: 2)
    /// Retry after RetryDelay seconds; obsolete since HAP R3.
    public static let backoff = PairingErrorCode(rawValue: 3)
    /// No room for another pairing.
    public static let maxPeers = PairingErrorCode(rawValue: 4)
    /// Too many failed setup attempts (HomeKitADK and HAP-NodeJS count to 100).
    public static let maxTries = PairingErrorCode(rawValue: 5)
    /// Pair Setup while already paired.
    public static let unavailable = PairingErrorCode(rawValue: 6)
    /// Another controller is in the middle of Pair Setup.
    public static let busy = PairingErrorCode(rawValue: 7)

    /// Whether HAP defines this code.
    public var isDefined: Bool { name != nil }

    /// The HAP name, or nil for an undefined code.
    public var name: String? {
        (1 ... Self.names.count).contains(Int(rawValue)) ? Self.names[Int(rawValue) - 1] : nil
    }

    private static let names = ["Unknown", "Authentication", "Backoff", "MaxPeers", "MaxTries", "Unavailable", "Busy"]

    /// The name and value, as reports show it: `Authentication (2)`, `undefined (9)`.
    public var description: String { namedValueDescription(name, rawValue) }
}
