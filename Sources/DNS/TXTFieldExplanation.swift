/// One TXT key decoded to meaning, as a report line reads it:
/// `sf=1  status flags 0x1: not paired, accepting pair-setup`.
public struct TXTFieldExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The key as sent.
    public var key: String
    /// The value as text (UTF-8, control characters replaced); nil for a bare key.
    public var value: String?
    /// What the value means, in one line a firmware developer understands.
    public var explanation: String
    /// Offset of the TXT string.
    public var offset: Int

    public init(key: String, value: String?, explanation: String, offset: Int) {
        self.key = key
        self.value = value
        self.explanation = explanation
        self.offset = offset
    }

    public var description: String {
        (value.map { "\(key)=\($0)" } ?? key) + ": " + explanation
    }
}
