import HAPCatalog
import WireParsing

/// One entry of the `characteristics` array of a `GET /characteristics` response, a write
/// response or an `EVENT` (HAP: characteristic read and event objects).
///
/// `value` stays JSON: the entry alone does not say its format. Type it with the database,
/// `database.characteristic(entry.id)?.interpret(value)`. With `meta=1`, `perms=1` or `type=1` the
/// entry also carries metadata, reachable directly (`entry.format`).
@dynamicMemberLookup
public struct CharacteristicEntry: Hashable, Sendable {
    public internal(set) var id: CharacteristicID
    public internal(set) var value: JSONValue?
    /// `status`, normalised to HAP's negative codes; nil when absent (success in a 200 body).
    public internal(set) var status: HAPStatus?
    /// `ev`: the subscription state, when asked for with `ev=1`.
    public internal(set) var eventsEnabled: Bool?
    /// `type`, when asked for with `type=1`.
    public internal(set) var type: HAPUUID?
    /// Only reads with `meta=1` or `perms=1` carry metadata, so it is kept behind a reference:
    /// entries are copied at every step from the wire to the timeline, and most have none.
    public internal(set) var metadata: CharacteristicMetadata {
        get { metadataBox?.metadata ?? CharacteristicMetadata() }
        set { metadataBox = newValue == CharacteristicMetadata() ? nil : MetadataBox(newValue) }
    }
    private var metadataBox: MetadataBox?
    /// The absolute offset of the entry's JSON object.
    public internal(set) var offset: Int

    init(id: CharacteristicID, offset: Int) {
        self.id = id
        self.offset = offset
    }

    public subscript<Field>(dynamicMember field: KeyPath<CharacteristicMetadata, Field>) -> Field {
        metadata[keyPath: field]
    }

    /// Decodes one entry; nil (with an error recorded) when it has no usable address.
    init?(decoding json: JSONValue, path: String, recorder: inout DiagnosticRecorder) {
        guard let id = recorder.decodeEntryID(json, path: path), let members = json.objectValue else { return nil }
        self.init(id: id, offset: json.offset)
        var declared = CharacteristicMetadata()
        defer { metadata = declared }
        for member in members {
            switch member.key {
            case "aid", "iid":
                break
            case "value":
                value = member.value
            case "status":
                status = recorder.decodeStatus(member, path: path, aid: id.aid, iid: id.iid)
            case "ev":
                if let bool = member.value.hapBool {
                    eventsEnabled = bool
                } else {
                    recorder.recordInvalidField(member, path: path, expected: "a boolean", aid: id.aid, iid: id.iid)
                }
            case "type":
                if let uuid = member.value.stringValue.flatMap(HAPUUID.init) {
                    type = uuid
                } else {
                    recorder.recordInvalidField(member, path: path, expected: "a UUID string", aid: id.aid, iid: id.iid)
                }
            default:
                if !declared.decode(member, path: path, aid: id.aid, iid: id.iid, recorder: &recorder) {
                    recorder.recordNonHAPKey(member, path: path, in: "characteristic entry", aid: id.aid, iid: id.iid)
                }
            }
        }
    }
}

/// Immutable metadata behind a reference, compared and hashed by value.
private final class MetadataBox: Hashable, Sendable {
    let metadata: CharacteristicMetadata

    init(_ metadata: CharacteristicMetadata) {
        self.metadata = metadata
    }

    static func == (lhs: MetadataBox, rhs: MetadataBox) -> Bool { lhs.metadata == rhs.metadata }
    func hash(into hasher: inout Hasher) { hasher.combine(metadata) }
}
