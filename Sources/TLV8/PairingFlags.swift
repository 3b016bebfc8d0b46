import WireParsing

/// Pairing type flags (HAP: `kTLVType_Flags`, HomeKitADK `HAPPairingFlag`): a little-endian
/// integer of up to four bytes. Bits HAP does not define are kept and shown.
public struct PairingFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Pair Setup stops after M4; the session keys come from the SRP secret.
    public static let transient = PairingFlags(rawValue: 0x0000_0010)
    /// With Transient: keep this SRP salt and verifier for the next Pair Setup; alone: reuse them.
    public static let split = PairingFlags(rawValue: 0x0100_0000)

    /// The bits HAP does not define.
    public var undefinedBits: UInt32 {
        rawValue & ~(Self.transient.rawValue | Self.split.rawValue)
    }

    /// The names and the value, as reports show it: `Transient | Split (0x01000010)`; an
    /// undefined bit appears as its hex mask, no bit at all as `none`.
    public var description: String {
        var parts: [String] = []
        if contains(.transient) { parts.append("Transient") }
        if contains(.split) { parts.append("Split") }
        var remaining = undefinedBits
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            parts.append(Self.hex(bit))
            remaining &= ~bit
        }
        let names = parts.isEmpty ? "none" : parts.joined(separator: " | ")
        return "\(names) (\(Self.hex(rawValue)))"
    }

    private static func hex(_ value: UInt32) -> String {
        "0x" + Hex.encode(withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }
}
