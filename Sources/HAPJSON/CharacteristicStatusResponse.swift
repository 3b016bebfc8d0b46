import WireParsing

/// How a read and a write response decode their entries, each of which may answer with a
/// `status`.
///
/// HAP answers `/characteristics` with 207 Multi-Status as soon as one entry fails, and then every
/// entry carries `status`; a write response is always 207, so there every entry needs one
/// (`requireAllStatuses`).
struct CharacteristicStatusResponse: Sendable {
    /// Names the body in errors: `characteristic read response`.
    let body: String
    let requireAllStatuses: Bool

    /// Decodes a parsed body, then records `missing-status` for every entry without the `status`
    /// it needs.
    func decode(_ document: JSONDocument) throws(DecodeError) -> (entries: [CharacteristicEntry], diagnostics: [HAPJSONDiagnostic]) {
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        let entries = try recorder.decodeCharacteristicList(document.root, body: body) { json, path, recorder in
            CharacteristicEntry(decoding: json, path: path, recorder: &recorder)
        }
        if !statusesAreConsistent(entries) {
            for (index, entry) in entries.enumerated() where entry.status == nil {
                recorder.diagnostics.append(HAPJSONDiagnostic(
                    .missingStatus, .warning, path: "/characteristics/\(index)", offset: entry.offset,
                    message: "entry \(entry.id) has no \"status\", which every entry of a 207 Multi-Status body needs",
                    aid: entry.id.aid, iid: entry.id.iid))
            }
        }
        return (entries, recorder.inDocumentOrder)
    }

    /// Reads the common flat shape without a JSON tree (`JSONReader.flatCharacteristicEntries`)
    /// when the body is so and no entry would be reported `missing-status`; otherwise parses the
    /// document and decodes it.
    func decode(
        parsing cursor: inout ByteCursor, limits: JSONLimits
    ) throws(DecodeError) -> (entries: [CharacteristicEntry], diagnostics: [HAPJSONDiagnostic]) {
        if let entries = JSONReader.flatCharacteristicEntries(in: cursor, limits: limits), statusesAreConsistent(entries) {
            _ = cursor.readRemaining()
            return (entries, [])
        }
        return try decode(JSONDocument(parsing: &cursor, limits: limits))
    }

    /// Whether no entry lacks a `status` it needs: with `requireAllStatuses`, none lacks one;
    /// without, either all or none have one.
    private func statusesAreConsistent(_ entries: [CharacteristicEntry]) -> Bool {
        entries.allSatisfy { $0.status != nil } || (!requireAllStatuses && entries.allSatisfy { $0.status == nil })
    }
}
