/// Something a lenient decode of an mDNS message stepped over or a consumer of it should know:
/// what (`Kind`) and the offset of the record, string or header concerned. The message
/// (`DNSMessageDiagnostic`), its TXT strings (`ServiceTXTDiagnostic`) and the discovery it
/// describes (`DiscoveryDiagnostic`) each report their own kinds in this one shape.
public struct DNSDiagnostic<Kind: Sendable & Hashable & CustomStringConvertible>: Sendable, Hashable, CustomStringConvertible {
    /// The absolute offset of what is concerned.
    public var offset: Int
    public var kind: Kind

    public init(offset: Int, kind: Kind) {
        self.offset = offset
        self.kind = kind
    }

    public var description: String { "byte \(offset): \(kind)" }
}
