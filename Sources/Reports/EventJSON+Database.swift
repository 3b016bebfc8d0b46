import HAPEvents
import HAPCatalog
import HAPJSON

extension EventJSON {
    static func writeDatabaseEvent(_ event: AccessoryDatabaseEvent, into writer: inout JSONWriter) {
        writeConnection(event.connection, into: &writer)
        writer.member("deviceID", event.deviceID)
        writer.member("bodyLength", event.bodyByteCount)
        writer.member("source", event.source.jsonName)
        writer.member("sourceName", event.source.origin)
        if let error = event.error {
            writer.key("error")
            writer.beginObject()
            writer.member("code", error.code.rawValue)
            writer.member("offset", error.offset)
            writer.member("expected", error.expected)
            writer.member("description", error.description)
            writer.endObject()
        }
        if let database = event.database {
            writeDatabase(database, into: &writer)
        }
        if let diff = event.diff {
            writer.objects("changes", diff.changes) { writer, change in writeChange(change, into: &writer) }
        }
    }

    /// `accessories` (the tree: accessories, services, characteristics) and `diagnostics`.
    static func writeDatabase(_ database: AccessoryDatabase, into writer: inout JSONWriter) {
        writer.objects("accessories", database.accessories) { writer, accessory in
            writer.member("aid", accessory.aid)
            writer.member("name", accessory.name)
            writer.objects("services", accessory.services) { writer, service in
                writeService(service, into: &writer)
            }
        }
        writer.objects("diagnostics", database.diagnostics) { writer, diagnostic in writeDiagnostic(diagnostic, into: &writer) }
    }

    /// A finding about a database body: a decode diagnostic, or a conformance issue (`tree`).
    static func writeDiagnostic(_ diagnostic: HAPJSONDiagnostic, into writer: inout JSONWriter) {
        writer.member("code", diagnostic.code.rawValue)
        writer.member("severity", diagnostic.severity.description)
        writer.member("path", diagnostic.path)
        writer.member("offset", diagnostic.offset)
        writer.member("aid", diagnostic.aid)
        writer.member("iid", diagnostic.iid)
        writer.member("message", diagnostic.message)
    }

    private static func writeService(_ service: HAPService, into writer: inout JSONWriter) {
        writer.member("iid", service.iid)
        writer.member("type", service.type.displayString)
        writer.member("typeName", service.name)
        writer.member("primary", service.isPrimary)
        writer.member("hidden", service.isHidden)
        if let linked = service.linkedServices {
            writer.array("linked", linked) { writer, iid in writer.unsignedInteger(iid) }
        }
        writer.objects("characteristics", service.characteristics) { writer, characteristic in
            writeCharacteristic(characteristic, into: &writer)
        }
    }

    private static func writeCharacteristic(_ characteristic: HAPCharacteristic, into writer: inout JSONWriter) {
        let metadata = characteristic.metadata
        writer.member("iid", characteristic.iid)
        writer.member("type", characteristic.type.displayString)
        writer.member("typeName", characteristic.name)
        writer.member("format", metadata.format?.wireName ?? metadata.unrecognizedFormat)
        writer.member("unit", metadata.unit?.wireName ?? metadata.unrecognizedUnit)
        if let permissions = metadata.permissions {
            writer.member("perms", strings: permissions.names + metadata.unrecognizedPermissions)
        }
        let structure = StructureText.structure(ofDatabaseValue: characteristic.value, type: characteristic.type)
        if let structure, !structure.secretRanges.isEmpty {
            writer.member("value", StructureText.printable(characteristic.value, structure: structure)?.jsonValue)
        } else {
            writer.member("value", characteristic.jsonValue)
        }
        if let structure { StructureText.write(structure, into: &writer) }
        writer.member("ev", characteristic.eventsEnabled)
        writer.member("minValue", metadata.minimumValue.map(JSONValue.number))
        writer.member("maxValue", metadata.maximumValue.map(JSONValue.number))
        writer.member("minStep", metadata.minimumStep.map(JSONValue.number))
        writer.member("maxLen", metadata.maximumLength)
        writer.member("maxDataLen", metadata.maximumDataLength)
        if let values = metadata.validValues {
            writer.array("validValues", values) { writer, value in writer.integer(value) }
        }
        if let ranges = metadata.validValueRanges {
            writer.array("validValuesRange", ranges) { writer, range in
                writer.beginArray()
                writer.integer(range.lowerBound)
                writer.integer(range.upperBound)
                writer.endArray()
            }
        }
        writer.member("description", metadata.manufacturerDescription)
        if !characteristic.valueIssues.isEmpty {
            writer.member("issues", strings: characteristic.valueIssues.map(\.description))
        }
    }

    private static func writeChange(_ change: AccessoryDatabaseDiff.Change, into writer: inout JSONWriter) {
        func fields(_ changes: [AccessoryDatabaseDiff.FieldChange], into writer: inout JSONWriter) {
            writer.objects("fields", changes) { writer, field in
                writer.member("field", field.field)
                writer.member("old", field.old)
                writer.member("new", field.new)
            }
        }
        switch change {
        case .accessoryAdded(let aid):
            writer.member("change", "accessory-added")
            writer.member("aid", aid)
        case .accessoryRemoved(let aid):
            writer.member("change", "accessory-removed")
            writer.member("aid", aid)
        case .serviceAdded(let aid, let iid, let type):
            writer.member("change", "service-added")
            writer.member("aid", aid)
            writer.member("iid", iid)
            writer.member("type", type.displayString)
        case .serviceRemoved(let aid, let iid, let type):
            writer.member("change", "service-removed")
            writer.member("aid", aid)
            writer.member("iid", iid)
            writer.member("type", type.displayString)
        case .serviceChanged(let aid, let iid, let changes):
            writer.member("change", "service-changed")
            writer.member("aid", aid)
            writer.member("iid", iid)
            fields(changes, into: &writer)
        case .characteristicAdded(let id, let type):
            writer.member("change", "characteristic-added")
            writer.member("characteristic", id.description)
            writer.member("type", type.displayString)
        case .characteristicRemoved(let id, let type):
            writer.member("change", "characteristic-removed")
            writer.member("characteristic", id.description)
            writer.member("type", type.displayString)
        case .characteristicMetadataChanged(let id, let changes):
            writer.member("change", "characteristic-metadata-changed")
            writer.member("characteristic", id.description)
            fields(changes, into: &writer)
        case .characteristicValueChanged(let id, let old, let new):
            writer.member("change", "characteristic-value-changed")
            writer.member("characteristic", id.description)
            writer.member("old", old)
            writer.member("new", new)
        }
    }

    static func writeActivity(_ activity: CharacteristicActivity, clock: CaptureClock, into writer: inout JSONWriter) {
        writeConnection(activity.connection, into: &writer)
        writer.member("deviceID", activity.deviceID)
        writer.member("kind", activity.kind.rawValue)
        writer.member("characteristic", activity.id.description)
        writer.member("aid", activity.id.aid)
        writer.member("iid", activity.id.iid)
        writer.member("characteristicType", activity.type?.displayString)
        writer.member("name", activity.name)
        writer.member("format", activity.format?.wireName)
        writer.member("unit", activity.unit?.wireName)
        if let value = activity.value {
            writer.member("value", value.value.jsonValue)
            if !value.issues.isEmpty {
                writer.member("issues", strings: value.issues.map(\.description))
            }
        }
        if let structure = activity.structure { StructureText.write(structure, into: &writer) }
        if let status = activity.status {
            writer.member("status", status.rawValue)
            writer.member("statusText", status.name)
        }
        if let pduStatus = activity.pduStatus {
            writer.member("pduStatus", Int(pduStatus.rawValue))
            writer.member("pduStatusText", pduStatus.name)
        }
        if let change = activity.unannouncedChange {
            writer.object("unannouncedChange") { writer in
                writer.member("earlierConnection", change.earlierConnection.id)
                writer.member("earlierValue", change.earlierValue?.value.jsonValue)
                writer.member("globalStateNumber", Int(change.globalStateNumber))
                writer.member("advertisementPacket", change.advertisementPacket.number)
            }
        }
        if activity.kind == .write {
            writer.member("timedWrite", activity.timedWrite)
            writer.member("answered", activity.answered)
        }
        writer.packetMembers(activity.requestPacket, clock: clock, prefix: "request")
        if let timing = activity.responseTiming {
            writer.object("latency") { writer in
                writer.member("seconds", seconds: timing.seconds)
                writer.member("verdict", timing.verdict.rawValue)
            }
        }
    }
}
