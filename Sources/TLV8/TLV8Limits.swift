/// Bounds a TLV8 decode puts on untrusted input.
///
/// A TLV8 body has no overall header, so every size is bounded by the input the caller hands
/// over. What remains to bound is the item count: a body of zero-length items holds one item
/// per two bytes, and each decoded item costs far more memory than its two bytes.
public struct TLV8Limits: Sendable, Hashable {
    /// The most items (fragments joined, separators counted) one body may hold.
    public var maximumItemCount: Int

    /// Room for a List Pairings response of 256 pairings (four items each), far more than any
    /// accessory stores; HomeKitADK requires only 16 pairing slots.
    public static let `default` = TLV8Limits(maximumItemCount: 1_024)

    public init(maximumItemCount: Int) {
        self.maximumItemCount = maximumItemCount
    }
}
