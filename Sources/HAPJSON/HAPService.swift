import HAPCatalog

/// One service of an accessory database (HAP: service object of `/accessories`).
public struct HAPService: Hashable, Sendable {
    public internal(set) var iid: UInt64
    public internal(set) var type: HAPUUID
    /// `primary`; nil when absent (ADK always writes it, others only when true).
    public internal(set) var isPrimary: Bool?
    /// `hidden`; nil when absent.
    public internal(set) var isHidden: Bool?
    /// `linked`: the iids of linked services; nil when absent.
    public internal(set) var linkedServices: [UInt64]?
    public internal(set) var characteristics: [HAPCharacteristic] = []
    /// The absolute offset of the service's JSON object.
    public internal(set) var offset: Int
    let sourceIndex: Int

    init(iid: UInt64, type: HAPUUID, offset: Int, sourceIndex: Int) {
        self.iid = iid
        self.type = type
        self.offset = offset
        self.sourceIndex = sourceIndex
    }

    public var definition: ServiceDefinition? {
        HAPCatalog.service(type)
    }

    /// The catalogue's name of the type (`"Lightbulb"`); nil for types it does not know.
    public var name: String? {
        definition?.name
    }

    /// The first characteristic of `type`.
    public func characteristic(ofType type: HAPUUID) -> HAPCharacteristic? {
        characteristics.first { $0.type == type }
    }

    // MARK: Decoding

    /// Decodes one service object; nil (with an error recorded) when it lacks a usable `iid`,
    /// `type` or `characteristics` array. Malformed characteristics are skipped and recorded.
    init?(
        decoding json: JSONValue, sourceIndex: Int, path: @autoclosure () -> String, aid: UInt64?, binaryValues: BinaryValueEncoding,
        recorder: inout DiagnosticRecorder
    ) {
        guard let members = json.objectValue else {
            recorder.record(.malformedService, .error, json, path: path(), "a service must be an object, found a \(json.kindName); skipped", aid: aid)
            return nil
        }
        let elements = json["characteristics"]?.arrayValue
        self.init(members: members[...], offset: json.offset, sourceIndex: sourceIndex, path: path(), aid: aid,
                  hasCharacteristics: elements != nil, recorder: &recorder)
        for (index, element) in (elements ?? []).enumerated() {
            if let characteristic = HAPCharacteristic(
                decoding: element, sourceIndex: index,
                path: JSONPointer.appending(index, to: JSONPointer.appending("characteristics", to: path())),
                aid: aid, binaryValues: binaryValues, recorder: &recorder) {
                characteristics.append(characteristic)
            }
        }
    }

    /// Decodes the members of one service object at `offset` but its characteristics, which the
    /// caller adds; nil (with an error recorded) when it lacks a usable `iid` or `type`, or
    /// (`hasCharacteristics` false) a `characteristics` array.
    init?(
        members: ArraySlice<JSONMember>, offset: Int, sourceIndex: Int, path: @autoclosure () -> String, aid: UInt64?,
        hasCharacteristics: Bool, recorder: inout DiagnosticRecorder
    ) {
        guard let iid = members.last(where: { $0.key == "iid" })?.value.hapInstanceID else {
            recorder.record(.malformedService, .error, at: offset, path: path(), "a service needs an \"iid\" from 1 to 2^64-1; skipped", aid: aid)
            return nil
        }
        guard let type = members.last(where: { $0.key == "type" })?.value.stringValue.flatMap(HAPUUID.init) else {
            recorder.record(.malformedService, .error, at: offset, path: path(), "a service needs a \"type\" UUID; skipped", aid: aid, iid: iid)
            return nil
        }
        guard hasCharacteristics else {
            recorder.record(.malformedService, .error, at: offset, path: path(), "a service needs a \"characteristics\" array; skipped", aid: aid, iid: iid)
            return nil
        }
        self.init(iid: iid, type: type, offset: offset, sourceIndex: sourceIndex)

        for member in members {
            switch member.key {
            case "iid", "type", "characteristics":
                break
            case "primary", "hidden":
                guard let bool = member.value.hapBool else {
                    recorder.recordInvalidField(member, path: path(), expected: "a boolean", aid: aid, iid: iid)
                    continue
                }
                if member.key == "primary" { isPrimary = bool } else { isHidden = bool }
            case "linked":
                guard let iids = member.value.arrayValue?.map(\.hapInstanceID), !iids.contains(nil) else {
                    recorder.recordInvalidField(member, path: path(), expected: "an array of service iids", aid: aid, iid: iid)
                    continue
                }
                linkedServices = iids.compactMap { $0 }
            default:
                recorder.recordNonHAPKey(member, path: path(), in: "service", aid: aid, iid: iid)
            }
        }
    }
}
