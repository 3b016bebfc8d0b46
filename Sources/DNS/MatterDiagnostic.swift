/// A Matter DNS-SD advertisement that is incomplete or malformed: its TXT keys
/// (connectedhomeip `TxtFields.h`), its instance name or its subtypes.
public typealias MatterDiagnostic = TXTKeyDiagnostic<MatterTXTProblem>

/// What a `MatterDiagnostic` reports; its offset is that of the TXT string or record concerned,
/// none for a missing key.
public enum MatterTXTProblem: Sendable, Hashable, CustomStringConvertible {
    /// A key the role requires is absent (`D` for a commissionable node).
    case missingKey(String)
    /// The key is present without a value.
    case missingValue(String)
    case notDecimal(key: String, value: String)
    /// A decimal with leading zeros: the Matter SDK reads it as 0.
    case leadingZeros(key: String, value: String)
    case outOfRange(key: String, value: UInt64, maximum: UInt64)
    /// A value the key does not define (`CM=7`, `ICD=2`).
    case unknownValue(key: String, value: String)
    /// Bitmap bits the key does not define.
    case unknownBits(key: String, bits: UInt64)
    /// Longer than the SDK's maximum for the key, in bytes.
    case valueTooLong(key: String, length: Int, maximum: Int)
    /// `VP` is not `vendor` or `vendor+product` in decimal.
    case vendorProductMalformed(String)
    /// `RI` is not an even number of hex digits.
    case rotatingIDNotHex(String)
    /// `PH` asks for an N or a custom instruction but no `PI` gives it.
    case pairingInstructionMissing(hint: UInt64)
    /// A commissioning key in an operational advertisement, which only carries the
    /// common keys.
    case keyNotForRole(key: String, role: MatterServiceRole)
    case unknownKey(String)
    /// An operational instance not named `<16 hex digits>-<16 hex digits>`.
    case operationalInstanceNameMalformed(String)
    /// A subtype label Matter does not define, or one with a number out of range.
    case unknownSubtype(String)

    public var description: String {
        switch self {
        case .missingKey(let key): "no \(key) key"
        case .missingValue(let key): "\(key) has no value"
        case .notDecimal(let key, let value): "\(key)=\(value) is not a decimal number"
        case .leadingZeros(let key, let value): "\(key)=\(value) has leading zeros, which the Matter SDK reads as 0"
        case .outOfRange(let key, let value, let maximum): "\(key)=\(value) exceeds the maximum \(maximum)"
        case .unknownValue(let key, let value): "\(key)=\(value) is not a defined value"
        case .unknownBits(let key, let bits): "\(key) has undefined bits set: 0x\(String(bits, radix: 16))"
        case .valueTooLong(let key, let length, let maximum): "\(key) is \(length) bytes, over the maximum \(maximum)"
        case .vendorProductMalformed(let value): "VP=\(value) is not vendor+product in decimal"
        case .rotatingIDNotHex(let value): "RI=\(value) is not hex"
        case .pairingInstructionMissing(let hint): "PH=\(hint) needs a PI key to give its N or instruction, and there is none"
        case .keyNotForRole(let key, let role): "\(key) does not belong in a \(role) advertisement"
        case .unknownKey(let key): "\(key) is not a Matter TXT key"
        case .operationalInstanceNameMalformed(let name):
            "operational instance \(name) is not <compressed fabric ID>-<node ID> in 16 hex digits each"
        case .unknownSubtype(let label): "subtype \(label) is not a Matter subtype"
        }
    }
}
