/// The pairing procedure a request asks for (HAP: `kTLVType_Method`, HomeKitADK `HAPPairingMethod`).
///
/// Any byte can arrive; values HAP does not define are kept so reports can show them.
public struct PairingMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `/pair-setup` M1.
    public static let pairSetup = PairingMethod(rawValue: 0)
    /// `/pair-setup` M1 with MFi authentication (HAP: Pair Setup with Auth).
    public static let pairSetupWithAuth = PairingMethod(rawValue: 1)
    /// Defined, but IP Pair Verify M1 normally omits Method.
    public static let pairVerify = PairingMethod(rawValue: 2)
    /// `/pairings` M1: add a controller.
    public static let addPairing = PairingMethod(rawValue: 3)
    /// `/pairings` M1: remove a controller.
    public static let removePairing = PairingMethod(rawValue: 4)
    /// `/pairings` M1: list the controllers.
    public static let listPairings = PairingMethod(rawValue: 5)
    /// Pair Verify M1 resuming a session; BLE only (HomeKitADK rejects it over IP).
    public static let pairResume = PairingMethod(rawValue: 6)

    /// The HAP name, or nil for an undefined value.
    public var name: String? {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    private static let names = [
        "PairSetup", "PairSetupWithAuth", "PairVerify", "AddPairing", "RemovePairing", "ListPairings", "PairResume",
    ]

    /// The name and value, as reports show it: `PairSetupWithAuth (1)`, `undefined (9)`.
    public var description: String { namedValueDescription(name, rawValue) }
}

/// `Name (value)`, or `undefined (value)` for a value HAP does not name.
func namedValueDescription(_ name: String?, _ rawValue: UInt8) -> String {
    "\(name ?? "undefined") (\(rawValue))"
}
