import HAPCatalog

/// One accessory of an accessory database (HAP: accessory object of `/accessories`).
public struct HAPAccessory: Hashable, Sendable {
    /// The accessory instance id: 1 for the primary accessory or bridge.
    public internal(set) var aid: UInt64
    public internal(set) var services: [HAPService] = []
    /// The absolute offset of the accessory's JSON object.
    public internal(set) var offset: Int
    let sourceIndex: Int

    init(aid: UInt64, offset: Int, sourceIndex: Int) {
        self.aid = aid
        self.offset = offset
        self.sourceIndex = sourceIndex
    }

    /// Accessory Information (`3E`), which every accessory must have exactly once.
    public static let accessoryInformationType = HAPUUID(appleDefined: 0x3E)

    public var accessoryInformation: HAPService? {
        service(ofType: Self.accessoryInformationType)
    }

    /// The Name (`23`) in Accessory Information.
    public var name: String? {
        if case .string(let name) = accessoryInformation?.characteristic(ofType: HAPUUID(appleDefined: 0x23))?.value {
            name
        } else {
            nil
        }
    }

    /// The first service of `type`.
    public func service(ofType type: HAPUUID) -> HAPService? {
        services.first { $0.type == type }
    }

    /// The service with instance id `iid`.
    public func service(iid: UInt64) -> HAPService? {
        services.first { $0.iid == iid }
    }

    // MARK: Decoding

    /// Decodes one accessory object; nil (with an error recorded) when it lacks a usable `aid` or
    /// `services` array. Malformed services are skipped and recorded.
    init?(
        decoding json: JSONValue, sourceIndex: Int, path: @autoclosure () -> String, binaryValues: BinaryValueEncoding,
        recorder: inout DiagnosticRecorder
    ) {
        guard let members = json.objectValue else {
            recorder.record(.malformedAccessory, .error, json, path: path(), "an accessory must be an object, found a \(json.kindName); skipped")
            return nil
        }
        let elements = json["services"]?.arrayValue
        self.init(members: members[...], offset: json.offset, sourceIndex: sourceIndex, path: path(), hasServices: elements != nil,
                  recorder: &recorder)
        for (index, element) in (elements ?? []).enumerated() {
            if let service = HAPService(
                decoding: element, sourceIndex: index,
                path: JSONPointer.appending(index, to: JSONPointer.appending("services", to: path())),
                aid: aid, binaryValues: binaryValues, recorder: &recorder) {
                services.append(service)
            }
        }
    }

    /// Decodes the members of one accessory object at `offset` but its services, which the
    /// caller adds; nil (with an error recorded) when it lacks a usable `aid` or (`hasServices`
    /// false) a `services` array.
    init?(
        members: ArraySlice<JSONMember>, offset: Int, sourceIndex: Int, path: @autoclosure () -> String, hasServices: Bool,
        recorder: inout DiagnosticRecorder
    ) {
        guard let aid = members.last(where: { $0.key == "aid" })?.value.hapInstanceID else {
            recorder.record(.malformedAccessory, .error, at: offset, path: path(), "an accessory needs an \"aid\" from 1 to 2^64-1; skipped")
            return nil
        }
        guard hasServices else {
            recorder.record(.malformedAccessory, .error, at: offset, path: path(), "an accessory needs a \"services\" array; skipped", aid: aid)
            return nil
        }
        self.init(aid: aid, offset: offset, sourceIndex: sourceIndex)
        for member in members where member.key != "aid" && member.key != "services" {
            recorder.recordNonHAPKey(member, path: path(), in: "accessory", aid: aid)
        }
    }
}
