import HAPCatalog
import WireParsing

/// One entry of a `PUT /characteristics` request (HAP: characteristic write request object).
public struct CharacteristicWriteEntry: Hashable, Sendable {
    public internal(set) var id: CharacteristicID
    /// The value to write, as JSON; type it with `database.characteristic(id)?.interpret(value)`.
    public internal(set) var value: JSONValue?
    /// `ev`: turns event notifications on (true) or off (false) for this connection.
    public internal(set) var eventsEnabled: Bool?
    /// `authData`: additional authorization data, base64-decoded (for `aa` characteristics).
    public internal(set) var authorizationData: [UInt8]?
    /// `remote`: the write comes through a home hub rather than a controller on the local network.
    public internal(set) var isRemote: Bool?
    /// `r`: the controller asks for a write response (for `wr` characteristics).
    public internal(set) var requestsWriteResponse: Bool?
    /// The absolute offset of the entry's JSON object.
    public internal(set) var offset: Int

    init(id: CharacteristicID, offset: Int) {
        self.id = id
        self.offset = offset
    }

    /// Decodes one entry; nil (with an error recorded) when it has no usable address.
    init?(decoding json: JSONValue, path: String, recorder: inout DiagnosticRecorder) {
        guard let id = recorder.decodeEntryID(json, path: path), let members = json.objectValue else { return nil }
        self.init(id: id, offset: json.offset)
        for member in members {
            func invalid(_ expected: String) {
                recorder.recordInvalidField(member, path: path, expected: expected, aid: id.aid, iid: id.iid)
            }
            switch member.key {
            case "aid", "iid":
                break
            case "value":
                value = member.value
            case "ev", "remote", "r":
                guard let bool = member.value.hapBool else { invalid("a boolean"); continue }
                switch member.key {
                case "ev": eventsEnabled = bool
                case "remote": isRemote = bool
                default: requestsWriteResponse = bool
                }
            case "authData":
                guard let bytes = member.value.stringValue.flatMap(Base64.decode) else { invalid("base64 text"); continue }
                authorizationData = bytes
            default:
                recorder.recordNonHAPKey(member, path: path, in: "characteristic write", aid: id.aid, iid: id.iid)
            }
        }
        if value == nil, eventsEnabled == nil {
            recorder.record(.missingField, .warning, json, path: path,
                            "a write of \(id) needs a \"value\" or an \"ev\"", aid: id.aid, iid: id.iid)
        }
    }
}

/// The body of a `PUT /characteristics` request: writes, subscriptions, and the `pid` of a timed
/// write prepared with `PUT /prepare` (HAP: writing characteristics, timed writes).
public struct CharacteristicWriteRequest: HAPJSONBody, Hashable {
    /// Entries without a usable `aid` and `iid` are skipped and reported.
    public internal(set) var entries: [CharacteristicWriteEntry]
    /// `pid`: the timed write this request completes.
    public internal(set) var pid: UInt64?
    public internal(set) var diagnostics: [HAPJSONDiagnostic]

    public init(document: JSONDocument) throws(DecodeError) {
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        entries = try recorder.decodeCharacteristicList(document.root, body: "characteristic write request", otherKeys: ["pid"]) { json, path, recorder in
            CharacteristicWriteEntry(decoding: json, path: path, recorder: &recorder)
        }
        if let member = document.root.objectValue?.last(where: { $0.key == "pid" }) {
            pid = member.value.numberValue?.uint64Value
            if pid == nil { recorder.recordInvalidField(member, path: "", expected: "an integer from 0 to 2^64-1") }
        }
        diagnostics = recorder.inDocumentOrder
    }

    /// Reads the common flat shape without a JSON tree when it can (`JSONReader.flatCharacteristicEntries`):
    /// no `pid`, and entries of `aid`, `iid`, `value` and `ev` alone, each with a value or an `ev`.
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        if let flat = JSONReader.flatCharacteristicEntries(in: cursor, limits: limits),
           flat.allSatisfy({ $0.status == nil && ($0.value != nil || $0.eventsEnabled != nil) }) {
            entries = flat.map { entry in
                var write = CharacteristicWriteEntry(id: entry.id, offset: entry.offset)
                write.value = entry.value
                write.eventsEnabled = entry.eventsEnabled
                return write
            }
            diagnostics = []
            _ = cursor.readRemaining()
            return
        }
        self = try Self(document: JSONDocument(parsing: &cursor, limits: limits))
    }
}
