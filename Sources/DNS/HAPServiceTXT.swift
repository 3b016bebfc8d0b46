import HAPCatalog
import WireParsing

/// The TXT record of a HAP accessory (`_hap._tcp`, and `_hap._udp` for HAP over Thread)
/// decoded to meaning (HAP fact sheet §7; ADK `HAPIPServiceDiscovery.c`).
///
/// Each key becomes a typed value and a one-line explanation in `fields`; a missing or
/// malformed key becomes a `HAPDiagnostic` with the offset of its string. A malformed value
/// leaves its typed property nil.
public struct HAPServiceTXT: Sendable, Hashable {
    /// `c#`: bumped whenever the accessory database changes; 1–65535, wrapping to 1.
    public var configurationNumber: UInt64?
    /// `ff`.
    public var featureFlags: HAPFeatureFlags?
    /// `id`: the accessory's pairing identifier, `XX:XX:XX:XX:XX:XX`, as sent.
    public var deviceID: String?
    /// `md`: the model name.
    public var model: String?
    /// `pv`.
    public var protocolVersion: HAPProtocolVersion?
    /// `s#`: always 1 for IP accessories.
    public var stateNumber: UInt64?
    /// `sf`.
    public var statusFlags: HAPStatusFlags?
    /// `ci`: the accessory category identifier.
    public var categoryIdentifier: UInt64?
    /// The category `ci` names, from `HAPCatalog`.
    public var categoryName: String?
    /// `sh`: the four bytes of the setup hash, the first four of
    /// SHA-512(setup ID ‖ device ID). The session layer checks them against a setup code.
    public var setupHash: [UInt8]?
    /// Every key in the order sent, with its meaning.
    public var fields: [TXTFieldExplanation]
    public var diagnostics: [HAPDiagnostic]

    /// The keys HAP defines.
    enum Key: String, CaseIterable {
        case configurationNumber = "c#"
        case featureFlags = "ff"
        case deviceID = "id"
        case model = "md"
        case protocolVersion = "pv"
        case stateNumber = "s#"
        case statusFlags = "sf"
        case category = "ci"
        case setupHash = "sh"

        /// Every key but `sh`, which ADK sends only when a setup ID is provisioned.
        var isRequired: Bool { self != .setupHash }
    }

    /// Decodes the key/value pairs of a HAP TXT record. `transport` is that of the service
    /// type: `s#` is fixed at 1 only over TCP.
    public init(_ txt: ServiceTXT, transport: ServiceType.Transport = .tcp) {
        fields = []
        fields.reserveCapacity(txt.entries.count)
        diagnostics = []
        var presentKeys: Set<Key> = []
        for entry in txt.entries {
            guard let key = Key(rawValue: entry.key.lowercased()) else {
                report(entry, .unknownKey(entry.key))
                explain(entry, "not a HAP key")
                continue
            }
            presentKeys.insert(key)
            guard let value = entry.value, !value.isEmpty else {
                report(entry, .missingValue(entry.key))
                explain(entry, "no value")
                continue
            }
            decode(entry, key: key, value: value, transport: transport)
        }
        for key in Key.allCases where key.isRequired && !presentKeys.contains(key) {
            diagnostics.append(HAPDiagnostic(offset: nil, kind: .missingKey(key.rawValue)))
        }
    }

    private mutating func decode(_ entry: ServiceTXT.Entry, key: Key, value: [UInt8], transport: ServiceType.Transport) {
        switch key {
        case .configurationNumber:
            guard let number = decimal(entry, value) else { return }
            configurationNumber = number
            if !(1...65535).contains(number) {
                report(entry, .configurationNumberOutOfRange(number))
            }
            explain(entry, "configuration number \(number): bumped when the accessory database changes, so controllers re-read /accessories")
        case .featureFlags:
            if let set: HAPFeatureFlags = flags(
                entry, value, "pairing feature flags", ifNone: "setup code only, no MFi authentication", undefined: HAPTXTProblem.unknownFeatureFlags) {
                featureFlags = set
            }
        case .deviceID:
            let text = entry.valueText ?? ""
            deviceID = text
            if !Self.isMACLike(value) {
                report(entry, .deviceIDNotMACLike(text))
            } else if value.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) {
                report(entry, .deviceIDNotUpperCase(text))
            }
            explain(entry, "device ID: the accessory's pairing identifier, which controllers store at pair-setup")
        case .model:
            model = entry.valueText
            explain(entry, "model name")
        case .protocolVersion:
            guard let version = HAPProtocolVersion(value) else {
                report(entry, .protocolVersionMalformed(entry.valueText ?? ""))
                explain(entry, "protocol version, malformed")
                return
            }
            protocolVersion = version
            explain(entry, "HAP protocol version \(version)")
        case .stateNumber:
            guard let number = decimal(entry, value) else { return }
            stateNumber = number
            if transport == .tcp, number != 1 { report(entry, .unexpectedStateNumber(number)) }
            explain(entry, transport == .tcp ? "state number \(number) (always 1 for IP accessories)" : "state number \(number)")
        case .statusFlags:
            if let set: HAPStatusFlags = flags(
                entry, value, "status flags", ifNone: "paired, no problem reported", undefined: HAPTXTProblem.unknownStatusFlags) {
                statusFlags = set
            }
        case .category:
            guard let number = decimal(entry, value) else { return }
            categoryIdentifier = number
            categoryName = Int(exactly: number).flatMap(HAPCatalog.categoryName)
            if let categoryName {
                explain(entry, "accessory category \(number): \(categoryName)")
            } else {
                report(entry, .unknownCategory(number))
                explain(entry, "accessory category \(number): not defined by HAP")
            }
        case .setupHash:
            guard let hash = ASCIIText.base64(value), hash.count == 4 else {
                report(entry, .setupHashMalformed(entry.valueText ?? ""))
                explain(entry, "setup hash, malformed")
                return
            }
            setupHash = hash
            explain(entry, "setup hash \(Hex.encode(hash)): "
                + "the first 4 bytes of SHA-512(setup ID ‖ device ID), so a controller can match a scanned setup code")
        }
    }

    /// The value as a decimal number, or nil after reporting it.
    private mutating func decimal(_ entry: ServiceTXT.Entry, _ value: [UInt8]) -> UInt64? {
        guard let number = ASCIIText.decimal(value) else {
            report(entry, .notDecimal(key: entry.key, value: entry.valueText ?? ""))
            explain(entry, "not a decimal number")
            return nil
        }
        return number
    }

    /// A word of flag bits, explained, with the bits HAP does not define reported as `undefined`;
    /// nil after reporting a value that is not a number.
    private mutating func flags<Flags: TXTFlags>(
        _ entry: ServiceTXT.Entry, _ value: [UInt8], _ name: String, ifNone: String, undefined: (UInt64) -> HAPTXTProblem
    ) -> Flags? {
        guard let number = decimal(entry, value) else { return nil }
        let flags = Flags(rawValue: number)
        if flags.undefinedBits != 0 { report(entry, undefined(flags.undefinedBits)) }
        explain(entry, flags.explanation(name, ifNone: ifNone))
        return flags
    }

    private mutating func report(_ entry: ServiceTXT.Entry, _ kind: HAPTXTProblem) {
        diagnostics.append(HAPDiagnostic(offset: entry.offset, kind: kind))
    }

    private mutating func explain(_ entry: ServiceTXT.Entry, _ explanation: String) {
        fields.append(TXTFieldExplanation(key: entry.key, value: entry.valueText, explanation: explanation, offset: entry.offset))
    }

    /// Six two-digit hex numbers, either case, separated by colons.
    private static func isMACLike(_ value: [UInt8]) -> Bool {
        guard value.count == 17 else { return false }
        return value.indices.allSatisfy { index in
            index % 3 == 2 ? value[index] == UInt8(ascii: ":") : ASCIIText.hexDigit(value[index]) != nil
        }
    }
}
