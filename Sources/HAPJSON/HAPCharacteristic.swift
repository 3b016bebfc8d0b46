import HAPCatalog

/// One characteristic of an accessory database (HAP: characteristic object of `/accessories`).
///
/// The metadata is as the accessory declared it, and reachable directly (`characteristic.format`,
/// `characteristic.minimumValue`). `value` is typed by the format, and `valueIssues` says what is
/// wrong with it against the format and the constraints that apply (`constraints`).
@dynamicMemberLookup
public struct HAPCharacteristic: Hashable, Sendable {
    public var iid: UInt64 { storage.iid }
    public var type: HAPUUID { storage.type }
    public var metadata: CharacteristicMetadata { storage.metadata }
    /// `value` as sent; nil when absent (write-only characteristics have none).
    public var jsonValue: JSONValue? { storage.jsonValue }
    /// `value` typed by the format; nil when absent.
    public var value: CharacteristicValue? { storage.value }
    /// What is wrong with `value`.
    public var valueIssues: [ValueIssue] { storage.valueIssues }
    /// `ev`: whether the connection that read the database is subscribed.
    public var eventsEnabled: Bool? { storage.eventsEnabled }
    /// The absolute offset of the characteristic's JSON object.
    public var offset: Int { storage.offset }
    /// The characteristic's index in its JSON array, for paths.
    var sourceIndex: Int { storage.sourceIndex }
    /// The catalogue's name of the type (`"Current Temperature"`); nil for types it does not know.
    /// Looked up once: every event and write of the characteristic names it.
    public var name: String? { storage.name }
    /// The constraints its values must keep, worked out once from the metadata and the catalogue.
    public var constraints: ValueConstraints { storage.constraints }
    /// `format` and `unit` from the metadata, read in place: every activity names them, and
    /// `metadata` hands out a copy.
    public var format: CharacteristicFormat? { storage.metadata.format }
    public var unit: CharacteristicUnit? { storage.metadata.unit }

    /// Everything, decoded once and never changed, behind one reference: the analyzer looks a
    /// characteristic up for every read, write and event, and a copy is then one retain.
    private let storage: Storage

    private final class Storage: Hashable, Sendable {
        let iid: UInt64
        let type: HAPUUID
        let metadata: CharacteristicMetadata
        let jsonValue: JSONValue?
        let value: CharacteristicValue?
        let valueIssues: [ValueIssue]
        let eventsEnabled: Bool?
        let offset: Int
        let sourceIndex: Int
        let name: String?
        let constraints: ValueConstraints
        let binaryValues: BinaryValueEncoding

        init(
            iid: UInt64, type: HAPUUID, metadata: CharacteristicMetadata, jsonValue: JSONValue?, eventsEnabled: Bool?, offset: Int,
            sourceIndex: Int, binaryValues: BinaryValueEncoding
        ) {
            self.iid = iid
            self.type = type
            self.metadata = metadata
            self.jsonValue = jsonValue
            self.eventsEnabled = eventsEnabled
            self.offset = offset
            self.sourceIndex = sourceIndex
            self.binaryValues = binaryValues
            let definition = HAPCatalog.characteristic(type)
            name = definition?.name
            constraints = ValueConstraints(metadata: metadata, type: type, definition: definition)
            if let jsonValue {
                let interpreted = HAPCharacteristic.interpret(
                    jsonValue, format: metadata.format, constraints: constraints, binary: binaryValues)
                value = interpreted.value
                valueIssues = interpreted.issues
            } else {
                value = nil
                valueIssues = []
            }
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs === rhs || (lhs.iid == rhs.iid && lhs.type == rhs.type && lhs.metadata == rhs.metadata
                && lhs.jsonValue == rhs.jsonValue && lhs.value == rhs.value && lhs.valueIssues == rhs.valueIssues
                && lhs.eventsEnabled == rhs.eventsEnabled && lhs.offset == rhs.offset && lhs.sourceIndex == rhs.sourceIndex)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(iid)
            hasher.combine(type)
            hasher.combine(metadata)
            hasher.combine(jsonValue)
            hasher.combine(offset)
        }
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
        Self.interpret(json, format: storage.metadata.format, constraints: storage.constraints, binary: storage.binaryValues)
    }

    private static func interpret(
        _ json: JSONValue, format: CharacteristicFormat?, constraints: ValueConstraints, binary: BinaryValueEncoding
    ) -> InterpretedValue {
        let interpreted = InterpretedValue(decoding: json, as: format, binary: binary)
        // Nearly every value meets its constraints: appending an empty list still cost ~150
        // instructions a value, and changing the value in place copied it to check it.
        let issues = constraints.check(interpreted.value)
        return issues.isEmpty ? interpreted : InterpretedValue(value: interpreted.value, issues: interpreted.issues + issues)
    }

    // MARK: Decoding

    /// Decodes one characteristic object; nil (with an error recorded) when it lacks a usable
    /// `iid` or `type`. Unusable optional fields are recorded and ignored.
    init?(
        decoding json: JSONValue, sourceIndex: Int, path: @autoclosure () -> String, aid: UInt64?, binaryValues: BinaryValueEncoding,
        recorder: inout DiagnosticRecorder
    ) {
        guard let members = json.objectValue else {
            recorder.record(.malformedCharacteristic, .error, json, path: path(), "a characteristic must be an object, found a \(json.kindName); skipped", aid: aid)
            return nil
        }
        self.init(members: members[...], offset: json.offset, sourceIndex: sourceIndex, path: path(), aid: aid,
                  binaryValues: binaryValues, recorder: &recorder)
    }

    /// Decodes the members of one characteristic object at `offset`, as `init(decoding:)` does.
    init?(
        members: ArraySlice<JSONMember>, offset: Int, sourceIndex: Int, path: @autoclosure () -> String, aid: UInt64?,
        binaryValues: BinaryValueEncoding, recorder: inout DiagnosticRecorder
    ) {
        guard let iid = members.last(where: { $0.key == "iid" })?.value.hapInstanceID else {
            recorder.record(.malformedCharacteristic, .error, at: offset, path: path(), "a characteristic needs an \"iid\" from 1 to 2^64-1; skipped", aid: aid)
            return nil
        }
        guard let type = members.last(where: { $0.key == "type" })?.value.stringValue.flatMap(HAPUUID.init) else {
            recorder.record(.malformedCharacteristic, .error, at: offset, path: path(), "a characteristic needs a \"type\" UUID; skipped", aid: aid, iid: iid)
            return nil
        }
        var metadata = CharacteristicMetadata()
        var jsonValue: JSONValue?
        var eventsEnabled: Bool?
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
                    recorder.recordInvalidField(member, path: path(), expected: "a boolean", aid: aid, iid: iid)
                }
            default:
                if !metadata.decode(member, path: path(), aid: aid, iid: iid, recorder: &recorder) {
                    recorder.recordNonHAPKey(member, path: path(), in: "characteristic", aid: aid, iid: iid)
                }
            }
        }
        // HAP: every characteristic declares how it may be used; without perms no controller can.
        if !members.contains(where: { $0.key == "perms" }) {
            recorder.record(.invalidPermissions, .error, at: offset, path: path(), "a characteristic needs \"perms\"; it has none",
                            aid: aid, iid: iid)
        }
        if !members.contains(where: { $0.key == "format" }) {
            recorder.record(.missingField, .warning, at: offset, path: path(), "a characteristic needs \"format\"", aid: aid, iid: iid)
        }
        storage = Storage(iid: iid, type: type, metadata: metadata, jsonValue: jsonValue, eventsEnabled: eventsEnabled,
                          offset: offset, sourceIndex: sourceIndex, binaryValues: binaryValues)
    }
}
