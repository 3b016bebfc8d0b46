import WireParsing

/// The body of a 207 Multi-Status answer to `PUT /characteristics`: a `status` for every entry,
/// and the `value` of those written with `"r": true` (HAP: writing characteristics). A write that
/// fully succeeds without write responses is answered 204 with no body.
public struct CharacteristicWriteResponse: HAPJSONBody, Hashable {
    /// Entries without a usable `aid` and `iid` are skipped and reported; entries without `status`
    /// are kept and reported (`missing-status`).
    public internal(set) var entries: [CharacteristicEntry]
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    public init(document: JSONDocument) throws(DecodeError) {
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        entries = try recorder.decodeResponseEntries(document.root, body: "characteristic write response", requireAllStatuses: true)
        diagnostics = recorder.inDocumentOrder
    }

    /// Reads the common flat shape without a JSON tree when it can (`CharacteristicEntry.flatResponseEntries`).
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        if let entries = CharacteristicEntry.flatResponseEntries(consuming: &cursor, limits: limits, requireAllStatuses: true) {
            self.entries = entries
            diagnostics = []
            return
        }
        self = try Self(document: JSONDocument(parsing: &cursor, limits: limits))
    }
}
