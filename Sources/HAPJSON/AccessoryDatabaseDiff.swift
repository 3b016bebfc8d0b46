import HAPCatalog

/// What changed between two databases of the same accessory, such as the one read before and the
/// one read after the `c#` configuration number changed.
///
/// Accessories are matched by `aid`, services by `iid` within their accessory, characteristics by
/// `aid.iid` (so a characteristic that moved to another service is a metadata change of its
/// `service`). Changes come in `aid`, then `iid` order. `ev` is not compared: it is the reading
/// connection's subscription, not part of the accessory's configuration.
public struct AccessoryDatabaseDiff: Hashable, Sendable {
    public enum Change: Hashable, Sendable {
        case accessoryAdded(aid: UInt64)
        case accessoryRemoved(aid: UInt64)
        case serviceAdded(aid: UInt64, iid: UInt64, type: HAPUUID)
        case serviceRemoved(aid: UInt64, iid: UInt64, type: HAPUUID)
        /// `type`, `primary`, `hidden` or `linked` changed.
        case serviceChanged(aid: UInt64, iid: UInt64, [FieldChange])
        case characteristicAdded(CharacteristicID, type: HAPUUID)
        case characteristicRemoved(CharacteristicID, type: HAPUUID)
        /// Any field but `value` and `ev` changed, or the characteristic moved to another service.
        case characteristicMetadataChanged(CharacteristicID, [FieldChange])
        /// The typed value changed (so `1` → `true` for a `bool` is no change).
        case characteristicValueChanged(CharacteristicID, old: JSONValue?, new: JSONValue?)
    }

    /// One field's text before and after; nil where the field was absent.
    public struct FieldChange: Hashable, Sendable, CustomStringConvertible {
        /// The HAP JSON key (`minValue`, `perms`), or `service` for the containing service's iid.
        public var field: String
        public var old: String?
        public var new: String?

        public init(field: String, old: String?, new: String?) {
            self.field = field
            self.old = old
            self.new = new
        }

        public var description: String {
            "\(field): \(old ?? "absent") → \(new ?? "absent")"
        }
    }

    public var changes: [Change]

    public var isEmpty: Bool { changes.isEmpty }

    /// No change: what a database compares as against itself.
    public static let unchanged = AccessoryDatabaseDiff(changes: [])

    private init(changes: [Change]) {
        self.changes = changes
    }

    public init(from old: AccessoryDatabase, to new: AccessoryDatabase) {
        changes = []
        let oldAccessories = Self.firstByID(old.accessories, id: \.aid)
        let newAccessories = Self.firstByID(new.accessories, id: \.aid)
        for aid in Set(oldAccessories.keys).union(newAccessories.keys).sorted() {
            switch (oldAccessories[aid], newAccessories[aid]) {
            case (nil, .some):
                changes.append(.accessoryAdded(aid: aid))
            case (.some, nil):
                changes.append(.accessoryRemoved(aid: aid))
            case (.some(let before), .some(let after)):
                compare(before, after)
            case (nil, nil):
                break
            }
        }
    }

    private mutating func compare(_ old: HAPAccessory, _ new: HAPAccessory) {
        let aid = new.aid
        let oldServices = Self.firstByID(old.services, id: \.iid)
        let newServices = Self.firstByID(new.services, id: \.iid)
        for iid in Set(oldServices.keys).union(newServices.keys).sorted() {
            switch (oldServices[iid], newServices[iid]) {
            case (nil, .some(let service)):
                changes.append(.serviceAdded(aid: aid, iid: iid, type: service.type))
            case (.some(let service), nil):
                changes.append(.serviceRemoved(aid: aid, iid: iid, type: service.type))
            case (.some(let before), .some(let after)):
                let fields = Self.fieldChanges(before, after, Self.serviceFields)
                if !fields.isEmpty { changes.append(.serviceChanged(aid: aid, iid: iid, fields)) }
            case (nil, nil):
                break
            }
        }

        let oldCharacteristics = Self.characteristicsByIID(old)
        let newCharacteristics = Self.characteristicsByIID(new)
        for iid in Set(oldCharacteristics.keys).union(newCharacteristics.keys).sorted() {
            let id = CharacteristicID(aid: aid, iid: iid)
            switch (oldCharacteristics[iid], newCharacteristics[iid]) {
            case (nil, .some(let entry)):
                changes.append(.characteristicAdded(id, type: entry.characteristic.type))
            case (.some(let entry), nil):
                changes.append(.characteristicRemoved(id, type: entry.characteristic.type))
            case (.some(let before), .some(let after)):
                var fields = Self.fieldChanges(before.characteristic, after.characteristic, Self.characteristicFields)
                if before.serviceIID != after.serviceIID {
                    fields.insert(FieldChange(field: "service", old: String(before.serviceIID), new: String(after.serviceIID)), at: 0)
                }
                if !fields.isEmpty { changes.append(.characteristicMetadataChanged(id, fields)) }
                if before.characteristic.value != after.characteristic.value {
                    changes.append(.characteristicValueChanged(id, old: before.characteristic.jsonValue, new: after.characteristic.jsonValue))
                }
            case (nil, nil):
                break
            }
        }
    }

    /// The fields compared for a service, by HAP JSON key, as text.
    private static let serviceFields: [(String, @Sendable (HAPService) -> String?)] = [
        ("type", { $0.type.displayString }),
        ("primary", { $0.isPrimary.map(String.init) }),
        ("hidden", { $0.isHidden.map(String.init) }),
        ("linked", { $0.linkedServices.map { json($0.map { JSONValue.number(JSONNumber($0)) }) } }),
    ]

    /// The fields compared for a characteristic, by HAP JSON key, as text.
    private static let characteristicFields: [(String, @Sendable (HAPCharacteristic) -> String?)] = [
        ("type", { $0.type.displayString }),
        ("perms", { characteristic in
            characteristic.permissions.map { ($0.names + characteristic.unrecognizedPermissions).joined(separator: ",") }
        }),
        ("format", { $0.format?.wireName ?? $0.unrecognizedFormat }),
        ("unit", { $0.unit?.wireName ?? $0.unrecognizedUnit }),
        ("minValue", { $0.minimumValue?.text }),
        ("maxValue", { $0.maximumValue?.text }),
        ("minStep", { $0.minimumStep?.text }),
        ("maxLen", { $0.maximumLength.map(String.init) }),
        ("maxDataLen", { $0.maximumDataLength.map(String.init) }),
        ("valid-values", { $0.validValues.map { json($0.map { JSONValue.number(JSONNumber($0)) }) } }),
        ("valid-values-range", { $0.validValueRanges.map { json($0.map { range in
            JSONValue.array([.number(JSONNumber(range.lowerBound)), .number(JSONNumber(range.upperBound))])
        }) } }),
        ("description", { $0.manufacturerDescription }),
    ]

    private static func fieldChanges<Element>(
        _ old: Element, _ new: Element, _ fields: [(String, @Sendable (Element) -> String?)]
    ) -> [FieldChange] {
        fields.compactMap { field, text in
            let (before, after) = (text(old), text(new))
            return before == after ? nil : FieldChange(field: field, old: before, new: after)
        }
    }

    private static func json(_ elements: [JSONValue]) -> String {
        JSONValue.array(elements).description
    }

    private static func firstByID<Element>(_ elements: [Element], id: (Element) -> UInt64) -> [UInt64: Element] {
        var byID: [UInt64: Element] = [:]
        for element in elements where byID[id(element)] == nil {
            byID[id(element)] = element
        }
        return byID
    }

    private static func characteristicsByIID(_ accessory: HAPAccessory) -> [UInt64: (characteristic: HAPCharacteristic, serviceIID: UInt64)] {
        var byIID: [UInt64: (characteristic: HAPCharacteristic, serviceIID: UInt64)] = [:]
        for service in accessory.services {
            for characteristic in service.characteristics where byIID[characteristic.iid] == nil {
                byIID[characteristic.iid] = (characteristic, service.iid)
            }
        }
        return byIID
    }
}
