import HAPCatalog
import HAPJSON

/// A path named in the accessory's own terms: `2.9 On` for the characteristic with aid 2 and
/// iid 9, `service 2.8 Lightbulb`, `accessory 2 Desk Lamp`, with the member below it (`value`,
/// `perms`).
///
/// Read from an accessory database (`{"accessories":[…]}` as `/accessories` returns it, a dump's
/// bare array, or hapscope's `accessory-database` record) or a `characteristic` record. Names come
/// from the value itself where it has them (the records' `typeName` and `name`), else from
/// `HAPCatalog` by type, else from the characteristic's `description`.
public struct AccessoryTerms: Hashable, Sendable, CustomStringConvertible {
    public enum Element: String, Hashable, Sendable {
        case accessory
        case service
        case characteristic
    }

    public var element: Element
    /// The accessory's aid, as written; nil when it has none.
    public var aid: String?
    /// The service's or characteristic's iid, as written.
    public var iid: String?
    /// The characteristic's or service's type name, or the accessory's name.
    public var name: String?
    /// Where the path goes on below the element; the root for the element itself.
    public var member: FieldPath

    public init(element: Element, aid: String?, iid: String?, name: String?, member: FieldPath) {
        self.element = element
        self.aid = aid
        self.iid = iid
        self.name = name
        self.member = member
    }

    /// `2.9 On`, `service 2.8 Lightbulb`, `accessory 2 Desk Lamp`: the element, not the member.
    public var description: String {
        label + number + (name.map { " " + $0 } ?? "")
    }

    /// `2.9` for a service or characteristic, `2` for an accessory.
    public var number: String {
        element == .accessory ? aid ?? "?" : "\(aid ?? "?").\(iid ?? "?")"
    }

    /// What precedes the number: characteristics, the common case, go without.
    var label: String {
        switch element {
        case .accessory: "accessory "
        case .service: "service "
        case .characteristic: ""
        }
    }

    /// The terms of `path` in `value`, a record of `recordType` (nil for a bare document); nil
    /// when the path is in no accessory, service or characteristic.
    public init?(path: FieldPath, in value: JSONValue, recordType: String?) {
        if recordType == "characteristic" {
            if case .key(let member)? = path.segments.first, Self.framingMembers.contains(member) { return nil }
            guard let iid = value["iid"] else { return nil }
            let name = value["name"]?.stringValue ?? value["characteristicType"]?.stringValue.flatMap(Self.characteristicName)
            self.init(element: .characteristic, aid: value["aid"].map(Self.text), iid: Self.text(iid), name: name, member: path)
            return
        }
        var segments = path.segments[...]
        var accessories = value
        if case .key("accessories")? = segments.first, let list = value["accessories"] {
            accessories = list
            segments = segments.dropFirst()
        }
        guard case .index(let accessoryIndex)? = segments.first, let accessory = Self.element(accessories, accessoryIndex) else { return nil }
        segments = segments.dropFirst()
        let aid = accessory["aid"].map(Self.text)
        guard case .key("services")? = segments.first, case .index(let serviceIndex)? = segments.dropFirst().first,
              let service = accessory["services"].flatMap({ Self.element($0, serviceIndex) })
        else {
            self.init(element: .accessory, aid: aid, iid: nil, name: Self.accessoryName(accessory), member: FieldPath(Array(segments)))
            return
        }
        segments = segments.dropFirst(2)
        guard case .key("characteristics")? = segments.first, case .index(let characteristicIndex)? = segments.dropFirst().first,
              let characteristic = service["characteristics"].flatMap({ Self.element($0, characteristicIndex) })
        else {
            let name = service["typeName"]?.stringValue
                ?? service["type"]?.stringValue.flatMap { HAPUUID($0) }.flatMap { HAPCatalog.service($0)?.name }
            self.init(element: .service, aid: aid, iid: service["iid"].map(Self.text), name: name, member: FieldPath(Array(segments)))
            return
        }
        segments = segments.dropFirst(2)
        let name = characteristic["typeName"]?.stringValue
            ?? characteristic["type"]?.stringValue.flatMap(Self.characteristicName)
            ?? characteristic["description"]?.stringValue
        self.init(element: .characteristic, aid: aid, iid: characteristic["iid"].map(Self.text), name: name, member: FieldPath(Array(segments)))
    }

    /// The members of a `characteristic` record that say where and when, not what: a change in
    /// them is not the characteristic's.
    static let framingMembers: Set<String> = [
        "type", "packet", "time", "timestamp", "connection", "client", "accessory", "deviceID", "requestPacket", "requestTime",
    ]

    private static func element(_ array: JSONValue, _ index: Int) -> JSONValue? {
        guard let elements = array.arrayValue, elements.indices.contains(index), elements[index].objectValue != nil else { return nil }
        return elements[index]
    }

    private static func characteristicName(_ type: String) -> String? {
        HAPUUID(type).flatMap { HAPCatalog.characteristic($0)?.name }
    }

    /// The record's `name`, or the Name characteristic (23) of the Accessory Information service
    /// (3E) as `/accessories` has it.
    static func accessoryName(_ accessory: JSONValue) -> String? {
        if let name = accessory["name"]?.stringValue { return name }
        let information = HAPUUID(appleDefined: 0x3E), nameType = HAPUUID(appleDefined: 0x23)
        for service in accessory["services"]?.arrayValue ?? [] where service["type"]?.stringValue.flatMap({ HAPUUID($0) }) == information {
            for characteristic in service["characteristics"]?.arrayValue ?? []
            where characteristic["type"]?.stringValue.flatMap({ HAPUUID($0) }) == nameType {
                return characteristic["value"]?.stringValue
            }
        }
        return nil
    }

    /// A number as written, a string as it is; other values as JSON.
    static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.description
    }
}
