/// A Matter DNS-SD subtype, the label before `._sub` that lets a commissioner browse for one
/// device (connectedhomeip `ServiceNaming.cpp` `MakeServiceSubtype`).
public enum MatterSubtype: Sendable, Hashable, CustomStringConvertible {
    /// `_L<n>`: the 12-bit long discriminator.
    case longDiscriminator(UInt16)
    /// `_S<n>`: the short discriminator, the top 4 bits of the long one.
    case shortDiscriminator(UInt8)
    /// `_V<n>`: the vendor ID.
    case vendor(UInt16)
    /// `_T<n>`: the primary device type.
    case deviceType(UInt32)
    /// `_CM`: currently in commissioning mode.
    case commissioningMode
    /// `_I<hex>`: the compressed fabric ID of an operational instance.
    case compressedFabricID(UInt64)
    /// Any other label, as text.
    case other(String)

    /// Reads a subtype label; numbers must be decimal without leading zeros and in range, as
    /// the SDK writes them, or the label is `.other`.
    public init(label: some Collection<UInt8>) {
        let bytes = Array(label)
        let text = DNSName.displayText(ofLabel: bytes)
        func number(after prefixLength: Int, maximum: UInt64) -> UInt64? {
            let digits = bytes.dropFirst(prefixLength)
            guard !ASCIIText.hasLeadingZero(digits), let value = ASCIIText.decimal(digits), value <= maximum else {
                return nil
            }
            return value
        }
        switch bytes.prefix(2) {
        case _ where bytes == Array("_CM".utf8):
            self = .commissioningMode
        case [UInt8(ascii: "_"), UInt8(ascii: "L")]:
            self = number(after: 2, maximum: 4095).map { .longDiscriminator(UInt16($0)) } ?? .other(text)
        case [UInt8(ascii: "_"), UInt8(ascii: "S")]:
            self = number(after: 2, maximum: 15).map { .shortDiscriminator(UInt8($0)) } ?? .other(text)
        case [UInt8(ascii: "_"), UInt8(ascii: "V")]:
            self = number(after: 2, maximum: 0xFFFF).map { .vendor(UInt16($0)) } ?? .other(text)
        case [UInt8(ascii: "_"), UInt8(ascii: "T")]:
            self = number(after: 2, maximum: 0xFFFF_FFFF).map { .deviceType(UInt32($0)) } ?? .other(text)
        case [UInt8(ascii: "_"), UInt8(ascii: "I")] where bytes.count == 18:
            self = ASCIIText.hexNumber(bytes.dropFirst(2)).map { .compressedFabricID($0) } ?? .other(text)
        default:
            self = .other(text)
        }
    }

    public var description: String {
        switch self {
        case .longDiscriminator(let value): "long discriminator \(value)"
        case .shortDiscriminator(let value): "short discriminator \(value)"
        case .vendor(let value): "vendor \(MatterServiceTXT.hex4(UInt64(value)))"
        case .deviceType(let value): "device type \(value)"
        case .commissioningMode: "in commissioning mode"
        case .compressedFabricID(let value): "compressed fabric ID \(MatterServiceTXT.hex16(value))"
        case .other(let text): "subtype \(text)"
        }
    }
}
