/// One TXT key that changed between two advertisements of the same instance.
public struct TXTChange: Sendable, Hashable {
    public let key: String
    public let old: String?
    public let new: String?

    public init(key: String, old: String?, new: String?) {
        self.key = key
        self.old = old
        self.new = new
    }

    /// `c#`, `s#` and `sf` are the keys whose changes controllers act on (HAP §7).
    public var isSignificant: Bool { ["c#", "s#", "sf"].contains(key) }
}
