import HAPCatalog

/// One characteristic of an accessory database (HAP: characteristic object of `/accessories`).
///
/// The metadata is as the accessory declared it, and reachable directly (`characteristic.format`,
/// `characteristic.minimumValue`). `value` is typed by the format, and `valueIssues` says what is
/// wrong with it against the format and the constraints that apply (`constraints`).
@dynamicMemberLookup
public struct HAPCharacteristic: Hashable, Sendable {
    public internal(set) var iid: UInt64
    public internal(set) var type: HAPUUID
    public internal(set) var metadata = CharacteristicMetadata()
    /// `value` as sent; nil when absent (write-only characteristics have none).
    public internal(set) var jsonValue: JSONValue?
    /// `value` typed by the format; nil when absent.
    public internal(set) var value: CharacteristicValue?
    /// What is wrong with `value`.
    public internal(set) var valueIssues: [ValueIssue] = []
    /// `ev`: whether the connection that read the database is subscribed.
    public internal(set) var eventsEnabled: Bool?
    /// The absolute offset of the characteristic's JSON object.
    public internal(set) var offset: Int
    /// The characteristic's index in its JSON array, for paths.
    let sourceIndex: Int
    /// The catalogue's name of the type (`"Current Temperature"`); nil for types it does not know.
    /// Looked up once: every event and write of the characteristic names it.
    public private(set) var name: String?
    /// The constraints its values must keep, worked out once from the metadata and the catalogue.
    public private(set) var constraints: ValueConstraints

    init(iid: UInt64, type: HAPUUID, offset: Int, sourceIndex: Int) {
        self.iid = iid
        self.type = type
        self.offset = offset
        self.sourceIndex = sourceIndex
        name = HAPCatalog.characteristic(type)?.name
        constraints = ValueConstraints(metadata: CharacteristicMetadata(), type: type)
    }

    public subscript<Field>(dynamicMember field: KeyPath<CharacteristicMetadata, Field>) -> Field {
        metadata[keyPath: field]
    }

    /// The catalogue's definition of the type.
    public var definition: CharacteristicDefinition? {
        HAPCatalog.characteristic(type)
    }


    /// Decodes and checks a value of this characteristic, such as one from an event or a write.
    public func interpret(_ json: JSONValue) -> InterpretedValue {
        var interpreted = InterpretedValue(decoding: json, as: metadata.format)
        interpreted.issues += constraints.check(interpreted.value)
        return interpreted
    }

    // MARK: Decoding

    /// Decodes one characteristic object; nil (with an error recorded) when it lacks a usable
    /// `iid` or `type`. Unusable optional fields are recorded and ignored.
    init?(decoding json: JSONValue, sourceIndex: Int, path: String, aid: UInt64?, recorder: inout DiagnosticRecorder) {
        guard let members = json.objectValue else {
            recorder.record(.malformedCharacteristic, .error, json, path: path, "a characteristic must be an object, found a \(json.kindName); skipped", aid: aid)
            return nil
        }
        guard let iid = json["iid"]?.hapInstanceID else {
            recorder.record(.malformedCharacteristic, .error, json, path: path, "a characteristic needs an \"iid\" from 1 to 2^64-1; skipped", aid: aid)
            return nil
        }
        guard let type = json["type"]?.stringValue.flatMap(HAPUUID.init) else {
            recorder.record(.malformedCharacteristic, .error, json, path: path, "a characteristic needs a \"type\" UUID; skipped", aid: aid, iid: iid)
            return nil
        }
        self.init(iid: iid, type: type, offset: json.offset, sourceIndex: sourceIndex)

        for member in members {
            switch member.key {
            case "iid", "type":
                break
            case "value":
                jsonValue = member.value
            case "ev":
                if let bool = member.value.hapBool {
                    eventsEnabled = bool
                } else {
                    recorder.recordInvalidField(member, path: path, expected: "a boolean", aid: aid, iid: iid)
                }
            default:
                if !metadata.decode(member, path: path, aid: aid, iid: iid, recorder: &recorder) {
                    recorder.recordNonHAPKey(member, path: path, in: "characteristic", aid: aid, iid: iid)
                }
            }
        }
        for (key, present) in [("perms", json["perms"] != nil), ("format", json["format"] != nil)] where !present {
            recorder.record(.missingField, .warning, json, path: path, "a characteristic needs \"\(key)\"", aid: aid, iid: iid)
        }
        constraints = ValueConstraints(metadata: metadata, type: type)
        if let jsonValue {
            let interpreted = interpret(jsonValue)
            value = interpreted.value
            valueIssues = interpreted.issues
        }
    }
}
