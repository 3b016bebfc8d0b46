/// A HAP Bonjour TXT record that is incomplete or malformed (HAP fact sheet §7).
public typealias HAPDiagnostic = TXTKeyDiagnostic<HAPTXTProblem>

/// What a `HAPDiagnostic` reports; its offset is that of the TXT string concerned, none for a
/// missing key.
public enum HAPTXTProblem: Sendable, Hashable, CustomStringConvertible {
    /// A key every HAP accessory advertises is absent.
    case missingKey(String)
    /// The key is present without a value (`md` or `md=`).
    case missingValue(String)
    /// A key whose value must be a decimal number is not one.
    case notDecimal(key: String, value: String)
    /// `c#` outside 1–65535.
    case configurationNumberOutOfRange(UInt64)
    /// `s#` other than 1 on `_hap._tcp`, where it is always 1.
    case unexpectedStateNumber(UInt64)
    /// `ff` bits other than 0 and 1.
    case unknownFeatureFlags(UInt64)
    /// `sf` bits other than 0, 1 and 2.
    case unknownStatusFlags(UInt64)
    /// `id` is not six two-digit hex numbers separated by colons.
    case deviceIDNotMACLike(String)
    /// `id` uses lower-case hex; HomeKitADK advertises upper case, and the setup hash is
    /// computed over the upper-case form.
    case deviceIDNotUpperCase(String)
    /// `pv` is not `major.minor`.
    case protocolVersionMalformed(String)
    /// `ci` names no category HAP defines.
    case unknownCategory(UInt64)
    /// `sh` is not base64 of exactly four bytes.
    case setupHashMalformed(String)
    /// A key HAP does not define.
    case unknownKey(String)

    public var description: String {
        switch self {
        case .missingKey("pv"): "no pv key: controllers assume protocol version 1.0"
        case .missingKey(let key): "no \(key) key"
        case .missingValue(let key): "\(key) has no value"
        case .notDecimal(let key, let value): "\(key)=\(value) is not a decimal number"
        case .configurationNumberOutOfRange(let value): "c#=\(value) is outside 1–65535"
        case .unexpectedStateNumber(let value): "s#=\(value), but IP accessories always advertise 1"
        case .unknownFeatureFlags(let bits): "ff has undefined bits set: 0x\(String(bits, radix: 16))"
        case .unknownStatusFlags(let bits): "sf has undefined bits set: 0x\(String(bits, radix: 16))"
        case .deviceIDNotMACLike(let value): "id=\(value) is not of the form XX:XX:XX:XX:XX:XX"
        case .deviceIDNotUpperCase(let value): "id=\(value) uses lower-case hex; HomeKitADK advertises upper case"
        case .protocolVersionMalformed(let value): "pv=\(value) is not of the form major.minor"
        case .unknownCategory(let value): "ci=\(value) is not a HAP accessory category"
        case .setupHashMalformed(let value): "sh=\(value) is not base64 of 4 bytes"
        case .unknownKey(let key): "\(key) is not a HAP TXT key"
        }
    }
}
