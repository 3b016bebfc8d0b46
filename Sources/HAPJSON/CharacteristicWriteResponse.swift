import WireParsing

/// The body of a 207 Multi-Status answer to `PUT /characteristics`: a `status` for every entry,
/// and the `value` of those written with `"r": true` (HAP: writing characteristics). A write that
/// fully succeeds without write responses is answered 204 with no body.
public struct CharacteristicWriteResponse: HAPJSONBody, Hashable {
    /// Entries without a usable `aid` and `iid` are skipped and reported; entries without `status`
    /// are kept and reported (`missing-status`).
    public internal(set) var entries: [CharacteristicEntry]
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    static let statusResponse = CharacteristicStatusResponse(body: "characteristic write response", requireAllStatuses: true)

    public init(document: JSONDocument) throws(DecodeError) {
        (entries, diagnostics) = try Self.statusResponse.decode(document)
    }

    /// Reads the common flat shape without a JSON tree when it can (`CharacteristicStatusResponse`).
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        (entries, diagnostics) = try Self.statusResponse.decode(parsing: &cursor, limits: limits)
    }
}
