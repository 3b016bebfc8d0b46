import WireParsing

/// A body that is only a HAP status: the answer to `PUT /prepare` (`{"status":0}`) and the error
/// bodies sent with HTTP 400, 470 or 500 (`{"status":-70401}`) (HAP: HAP status codes).
public struct StatusResponse: HAPJSONBody, Hashable {
    /// Normalised to HAP's negative codes (a positive code is noted in `diagnostics`).
    public internal(set) var status: HAPStatus
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    /// Throws `hap-json` `malformed` when there is no integer `status`.
    public init(document: JSONDocument) throws(DecodeError) {
        let root = document.root
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        guard let members = root.objectValue, let member = members.last(where: { $0.key == "status" }),
              let status = recorder.decodeStatus(member, path: "") else {
            throw DecodeError(.malformed, layer: .hapJSON, offset: root["status"]?.offset ?? root.offset,
                              expected: "a status body: an object with an integer \"status\"")
        }
        for other in members where other.key != "status" {
            recorder.recordNonHAPKey(other, path: "", in: "status")
        }
        self.status = status
        diagnostics = recorder.inDocumentOrder
    }
}
