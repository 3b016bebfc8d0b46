/// A service's TXT keys (or, for Matter, its instance name or subtypes) judged against what its
/// protocol asks: what (`Kind`) and the offset of the TXT string or record concerned, none for a
/// key that is absent. HAP (`HAPDiagnostic`) and Matter (`MatterDiagnostic`) report their own
/// kinds in this one shape.
public struct TXTKeyDiagnostic<Kind: Sendable & Hashable & CustomStringConvertible>: Sendable, Hashable, CustomStringConvertible {
    /// The absolute offset of what is concerned; nil for a missing key.
    public var offset: Int?
    public var kind: Kind

    public init(offset: Int?, kind: Kind) {
        self.offset = offset
        self.kind = kind
    }

    public var description: String { (offset.map { "byte \($0): " } ?? "") + kind.description }
}
