import WireParsing

/// The body of `PUT /prepare`, which opens a timed write: `{"ttl":<ms>,"pid":<u64>}`
/// (HAP: timed write procedures). The `PUT /characteristics` that follows carries the same `pid`
/// and must arrive within `ttl` milliseconds.
public struct PrepareRequest: HAPJSONBody, Hashable {
    /// `ttl`: how long the prepared write stays valid, in milliseconds.
    public internal(set) var timeToLive: UInt64
    /// `pid`: the identifier the write will carry.
    public internal(set) var pid: UInt64
    /// Non-HAP keys and duplicate keys.
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    /// Throws `hap-json` `malformed` when `ttl` or `pid` is missing or not a non-negative integer.
    public init(document: JSONDocument) throws(DecodeError) {
        let root = document.root
        guard let members = root.objectValue else {
            throw DecodeError(.malformed, layer: .hapJSON, offset: root.offset, expected: "a prepare body: an object with \"ttl\" and \"pid\"")
        }
        guard let timeToLive = root["ttl"]?.numberValue?.uint64Value else {
            throw DecodeError(.malformed, layer: .hapJSON, offset: root["ttl"]?.offset ?? root.offset,
                              expected: "\"ttl\": a non-negative integer of milliseconds")
        }
        guard let pid = root["pid"]?.numberValue?.uint64Value else {
            throw DecodeError(.malformed, layer: .hapJSON, offset: root["pid"]?.offset ?? root.offset,
                              expected: "\"pid\": an integer from 0 to 2^64-1")
        }
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        for member in members where member.key != "ttl" && member.key != "pid" {
            recorder.recordNonHAPKey(member, path: "", in: "prepare")
        }
        self.timeToLive = timeToLive
        self.pid = pid
        diagnostics = recorder.inDocumentOrder
    }
}
