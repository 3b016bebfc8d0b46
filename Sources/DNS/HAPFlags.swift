/// The `ff` TXT key: how the accessory can be paired (HAP: Bonjour TXT record; ADK
/// `HAPAccessoryServer.c`).
public struct HAPFeatureFlags: OptionSet, Sendable, Hashable, TXTFlags {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: pairs with an Apple Authentication Coprocessor (MFi hardware authentication).
    public static let appleAuthenticationCoprocessor = HAPFeatureFlags(rawValue: 0x01)
    /// Bit 1: pairs with software authentication (a token).
    public static let softwareAuthentication = HAPFeatureFlags(rawValue: 0x02)

    public static let known: HAPFeatureFlags = [.appleAuthenticationCoprocessor, .softwareAuthentication]

    var meanings: [String] {
        meanings(from: [
            (.appleAuthenticationCoprocessor, "pairs with an Apple Authentication Coprocessor (MFi hardware)"),
            (.softwareAuthentication, "pairs with software authentication (token)"),
        ])
    }
}

/// The `sf` TXT key: the accessory's status (HAP: Bonjour TXT record; ADK, HAP-NodeJS,
/// aiohomekit).
public struct HAPStatusFlags: OptionSet, Sendable, Hashable, TXTFlags {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: not paired with any controller, so it accepts pair-setup.
    public static let notPaired = HAPStatusFlags(rawValue: 0x01)
    /// Bit 1: not configured to join a Wi-Fi network (HAP-NodeJS and aiohomekit; not in ADK).
    public static let wiFiNotConfigured = HAPStatusFlags(rawValue: 0x02)
    /// Bit 2: a problem has been detected on the accessory.
    public static let problemDetected = HAPStatusFlags(rawValue: 0x04)

    public static let known: HAPStatusFlags = [.notPaired, .wiFiNotConfigured, .problemDetected]

    var meanings: [String] {
        meanings(from: [
            (.notPaired, "not paired, accepting pair-setup"),
            (.wiFiNotConfigured, "not configured to join Wi-Fi"),
            (.problemDetected, "problem detected"),
        ])
    }
}

/// The `pv` TXT key: the HAP protocol version, `major.minor`.
public struct HAPProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: UInt64
    public var minor: UInt64

    public init(major: UInt64, minor: UInt64) {
        self.major = major
        self.minor = minor
    }

    /// Parses `X.Y`, both decimal; nil for anything else.
    public init?(_ text: some Collection<UInt8>) {
        guard let dot = text.firstIndex(of: UInt8(ascii: ".")),
              let major = ASCIIText.decimal(text[..<dot]),
              let minor = ASCIIText.decimal(text[text.index(after: dot)...])
        else { return nil }
        self.init(major: major, minor: minor)
    }

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: HAPProtocolVersion, rhs: HAPProtocolVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
