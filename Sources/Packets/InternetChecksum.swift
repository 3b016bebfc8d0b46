/// The Internet checksum (RFC 1071): the one's complement of the one's complement sum of
/// 16-bit big-endian words. Used only to count packets whose checksum is wrong; captures taken
/// on a sending host routinely carry unfinished checksums (offload), so nothing is rejected.
struct InternetChecksum {
    private var sum: UInt64 = 0

    /// Adds `bytes` as if they started on an even offset of the checksummed data.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        // Eight bytes at a time: one's complement addition is byte-order independent as long
        // as the final fold swaps back (RFC 1071 §2 (B)), so words are summed in host order.
        var wide: UInt64 = 0
        while index + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let (partial, overflow) = wide.addingReportingOverflow(word)
            wide = partial &+ (overflow ? 1 : 0)
            index += 8
        }
        var hostOrderSum = (wide & 0xFFFF_FFFF) + (wide >> 32)
        while index + 2 <= count {
            hostOrderSum += UInt64(bytes.loadUnaligned(fromByteOffset: index, as: UInt16.self))
            index += 2
        }
        if index < count {
            // A final odd byte is the high byte of a word padded with zero.
            var pad: UInt16 = 0
            withUnsafeMutableBytes(of: &pad) { $0[0] = bytes[index] }
            hostOrderSum += UInt64(pad)
        }
        sum += UInt64(Self.fold(hostOrderSum).bigEndian)
    }

    mutating func add(_ word: UInt16) { sum += UInt64(word) }

    mutating func add(_ word: UInt32) {
        sum += UInt64(word >> 16) + UInt64(word & 0xFFFF)
    }

    mutating func add(_ address: IPAddress) {
        switch address {
        case .v4(let value):
            add(value)
        case .v6(let high, let low):
            add(UInt32(truncatingIfNeeded: high >> 32)); add(UInt32(truncatingIfNeeded: high))
            add(UInt32(truncatingIfNeeded: low >> 32)); add(UInt32(truncatingIfNeeded: low))
        }
    }

    /// Whether the data added, checksum field included, sums to all ones.
    var isValid: Bool { Self.fold(sum) == 0xFFFF }

    /// The value to write into a checksum field (big-endian) that was zero while summing.
    var value: UInt16 { ~Self.fold(sum) }

    private static func fold(_ value: UInt64) -> UInt16 {
        var folded = value
        while folded >> 16 != 0 { folded = (folded & 0xFFFF) + (folded >> 16) }
        return UInt16(folded)
    }
}
