/// A pairing body decoded leniently into a typed message.
///
/// HAP pairing bodies come from accessories of every quality, so decoding never fails: what
/// could be read is in `content`, and every departure from HAP's rules is in `diagnostics`,
/// with the byte offset of the item at fault.
public struct DecodedPairingBody<Content: Sendable & Hashable>: Sendable, Hashable {
    /// The typed message; nil when the body does not say which step it is (no readable State
    /// and no expected state, a step outside the procedure, a `/pairings` Method unknown).
    public var content: Content?
    /// The step: the body's State item, or the state the caller expected when it has none.
    /// Nil when no step could be told, and for the sub-TLVs of EncryptedData, which carry none.
    public var state: PairingState?
    /// Every problem found: those of the TLV8 encoding (`.tlv8`) first, then those of the
    /// message, each group in wire order (a missing item at the start of its body or entry).
    public var diagnostics: [PairingDiagnostic]
    /// The items as decoded, in wire order, for rendering.
    public var body: TLV8Body

    public init(content: Content?, state: PairingState?, diagnostics: [PairingDiagnostic], body: TLV8Body) {
        self.content = content
        self.state = state
        self.diagnostics = diagnostics
        self.body = body
    }
}
