import WireParsing

/// A HAP JSON body type: decoded from a parsed `JSONDocument`, and so also from bytes.
public protocol HAPJSONBody: Sendable {
    /// Decodes a parsed body. Throws `DecodeError` with layer `hap-json` only when the body's
    /// shape leaves nothing to decode; smaller faults become diagnostics.
    init(document: JSONDocument) throws(DecodeError)

    /// Parses and decodes a body filling the rest of the cursor; JSON errors have layer `json`.
    /// A requirement, so that bodies with a faster path for their common shape use it also when
    /// decoded generically.
    init(parsing cursor: inout ByteCursor, limits: JSONLimits) throws(DecodeError)
}

extension HAPJSONBody {
    /// Parses and decodes a body filling the rest of the cursor; JSON errors have layer `json`.
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        try self.init(document: JSONDocument(parsing: &cursor, limits: limits))
    }

    /// Parses and decodes a body; offsets count from its first byte.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        try self.init(document: JSONDocument(bytes: bytes, limits: limits))
    }
}

extension DiagnosticRecorder {
    /// Decodes a `status` member, normalising positive codes (HAP quirk) with a note.
    mutating func decodeStatus(_ member: JSONMember, path: String, aid: UInt64? = nil, iid: UInt64? = nil) -> HAPStatus? {
        guard let code = member.value.hapInteger else {
            recordInvalidField(member, path: path, expected: "an integer HAP status", aid: aid, iid: iid)
            return nil
        }
        let status = HAPStatus(wireValue: code)
        if code > 0 {
            record(.positiveStatus, .note, member.value, path: JSONPointer.appending("status", to: path),
                   "status \(code) was sent without its sign; read as \(status)", aid: aid, iid: iid)
        }
        return status
    }

    /// Decodes the `characteristics` array of a `/characteristics` body, skipping and recording the
    /// entries `decodeEntry` rejects. Throws when the body is not an object with that array.
    mutating func decodeCharacteristicList<Entry>(
        _ root: JSONValue, body: String, otherKeys: Set<String> = [],
        decodeEntry: (JSONValue, String, inout DiagnosticRecorder) -> Entry?
    ) throws(DecodeError) -> [Entry] {
        guard let members = root.objectValue, let elements = root["characteristics"]?.arrayValue else {
            throw DecodeError(.malformed, layer: .hapJSON, offset: root["characteristics"]?.offset ?? root.offset,
                              expected: "a \(body) body: an object with a \"characteristics\" array")
        }
        for member in members where member.key != "characteristics" && !otherKeys.contains(member.key) {
            recordNonHAPKey(member, path: "", in: body)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let entry = decodeEntry(element, "/characteristics/\(index)", &self) {
                entries.append(entry)
            }
        }
        return entries
    }

    /// The `aid` and `iid` of a `/characteristics` entry; nil (with an error recorded) when either
    /// is missing or unusable.
    mutating func decodeEntryID(_ json: JSONValue, path: String) -> CharacteristicID? {
        guard json.objectValue != nil else {
            record(.malformedEntry, .error, json, path: path, "an entry must be an object, found a \(json.kindName); skipped")
            return nil
        }
        guard let aid = json["aid"]?.hapInstanceID, let iid = json["iid"]?.hapInstanceID else {
            record(.malformedEntry, .error, json, path: path, "an entry needs an \"aid\" and an \"iid\" from 1 to 2^64-1; skipped")
            return nil
        }
        return CharacteristicID(aid: aid, iid: iid)
    }
}
