/// Bounds and strictness for decoding one DNS message.
///
/// The defaults accept every message a conforming mDNS responder sends (RFC 6762 §17 caps
/// mDNS messages at 9000 bytes) while keeping the work per hostile message linear in its size.
public struct DNSDecodingOptions: Sendable, Hashable {
    /// Compression pointers followed while reading one name. A legitimate name needs one
    /// pointer per suffix it shares with an earlier name, so a handful at most; the budget stops
    /// a chain of pointers from making every name cost a walk through the whole message.
    public var maxPointerJumps: Int
    /// Questions plus resource records in one message. The header can announce up to
    /// 4 × 65535 entries; this bounds the arrays built from those counts.
    public var maxEntries: Int
    /// When true, problems that a lenient decode reports as diagnostics (record data that
    /// does not fit its type, trailing bytes, a misplaced OPT record) throw instead.
    public var isStrict: Bool

    public static let defaultMaxPointerJumps = 32
    public static let defaultMaxEntries = 4096

    public init(
        maxPointerJumps: Int = DNSDecodingOptions.defaultMaxPointerJumps,
        maxEntries: Int = DNSDecodingOptions.defaultMaxEntries,
        isStrict: Bool = false
    ) {
        self.maxPointerJumps = maxPointerJumps
        self.maxEntries = maxEntries
        self.isStrict = isStrict
    }
}
