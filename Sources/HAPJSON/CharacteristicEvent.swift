import WireParsing

/// The body of an `EVENT/1.0` notification: the new values of subscribed characteristics
/// (HAP: event notifications).
public struct CharacteristicEvent: HAPJSONBody, Hashable {
    /// Entries without a usable `aid` and `iid` are skipped and reported.
    public internal(set) var entries: [CharacteristicEntry]
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    public init(document: JSONDocument) throws(DecodeError) {
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        entries = try recorder.decodeCharacteristicList(document.root, body: "event") { json, path, recorder in
            CharacteristicEntry(decoding: json, path: path, recorder: &recorder)
        }
        diagnostics = recorder.inDocumentOrder
    }

    /// Reads the common flat shape without a JSON tree when it can (`JSONReader.flatCharacteristicEntries`).
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        if let entries = JSONReader.flatCharacteristicEntries(in: cursor, limits: limits) {
            self.entries = entries
            diagnostics = []
            _ = cursor.readRemaining()
            return
        }
        self = try Self(document: JSONDocument(parsing: &cursor, limits: limits))
    }
}
