import HAPCrypto

/// A seeded SplitMix64 generator: the capture generator's only source of randomness, so that
/// the same seed gives a byte-identical capture and key log on every machine.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// `count` random bytes.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(count + 7)
        while result.count < count {
            withUnsafeBytes(of: next()) { result.append(contentsOf: $0) }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// `count` random bytes as a secret, for key material.
    mutating func secret(_ count: Int) -> SecretBytes {
        SecretBytes(bytes(count))
    }

    /// A value in `range`, drawn without the modulo bias mattering at these sizes.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        int(in: 0...(denominator - 1)) < numerator
    }
}
