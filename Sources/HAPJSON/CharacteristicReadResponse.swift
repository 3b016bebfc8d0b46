import WireParsing

/// The body of a `GET /characteristics` response, 200 or 207 (HAP: reading characteristics).
///
/// A 207 body carries `status` on every entry; when some entries have one and others do not,
/// each one without is reported (`missing-status`). Whether a 207 body has statuses at all is for
/// the caller, who knows the HTTP status, to check.
public struct CharacteristicReadResponse: HAPJSONBody, Hashable {
    /// Entries without a usable `aid` and `iid` are skipped and reported.
    public internal(set) var entries: [CharacteristicEntry]
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    static let statusResponse = CharacteristicStatusResponse(body: "characteristic read response", requireAllStatuses: false)

    public init(document: JSONDocument) throws(DecodeError) {
        (entries, diagnostics) = try Self.statusResponse.decode(document)
    }

    /// Reads the common flat shape without a JSON tree when it can (`CharacteristicStatusResponse`).
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        (entries, diagnostics) = try Self.statusResponse.decode(parsing: &cursor, limits: limits)
    }
}
