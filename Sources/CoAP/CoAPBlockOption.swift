import WireParsing

/// The value of a Block1 or Block2 option (RFC 7959 §2.2): an unsigned integer of 0–3 bytes
/// holding the block number (NUM, the upper bits), whether more blocks follow (M, bit 3) and
/// the size exponent (SZX, bits 0–2; the block holds 2^(SZX+4) bytes, SZX 7 is reserved).
public struct CoAPBlockOption: Hashable, Sendable {
    public var number: UInt32
    public var hasMore: Bool
    public var sizeExponent: UInt8

    /// The block size in bytes: 16 to 1024.
    public var size: Int { 1 << (Int(sizeExponent) + 4) }
    /// Where the block starts in the whole body.
    public var offset: Int { Int(number) * size }

    public init(number: UInt32, hasMore: Bool, sizeExponent: UInt8) {
        precondition(sizeExponent < 7, "SZX 7 is reserved")
        self.number = number
        self.hasMore = hasMore
        self.sizeExponent = sizeExponent
    }

    /// Decodes an option's value; layer `coap`, at the option's offset.
    public init(option: CoAPOption) throws(DecodeError) {
        guard option.value.count <= 3 else {
            throw DecodeError(.malformed, layer: .coap, offset: option.offset, expected: "a block option of at most 3 bytes, found \(option.value.count)")
        }
        let value = UInt32(option.value.reduce(0) { $0 << 8 | UInt64($1) })
        let exponent = UInt8(value & 0x07)
        guard exponent != 7 else {
            throw DecodeError(.malformed, layer: .coap, offset: option.offset, expected: "a block size exponent (SZX) of 0 to 6, found the reserved 7")
        }
        self.init(number: value >> 4, hasMore: value & 0x08 != 0, sizeExponent: exponent)
    }

    /// The option value, in as few bytes as hold it.
    public var encodedValue: [UInt8] {
        let value = number << 4 | (hasMore ? 0x08 : 0) | UInt32(sizeExponent)
        switch value {
        case 0: return []
        case ..<0x100: return [UInt8(value)]
        case ..<0x1_0000: return [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        default: return [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
    }
}
