import HAPEvents
import HAPModel
import HAPCatalog
import HAPJSON

/// The accessory tree: each accessory database as the capture last showed it, accessories →
/// services → characteristics, with the catalogue's names and what the capture saw of each value.
extension HTMLReportBuilder {
    func writeAccessoryTree(_ html: inout HTMLWriter) {
        html.section(id: "accessories", title: "Accessories") { html in
            let withDatabase = model.accessories.filter { $0.database != nil }
            if withDatabase.isEmpty {
                html.element("p", ["class": "muted"], text: "The capture holds no readable /accessories response "
                    + "(it is encrypted, and the key log did not open the session, or it was never requested).")
            }
            for accessory in withDatabase {
                guard let database = accessory.database else { continue }
                writeDatabase(database, of: accessory, &html)
            }
        }
    }

    private func writeDatabase(_ database: AccessoryDatabase, of device: CaptureModel.Accessory, _ html: inout HTMLWriter) {
        html.element("h3", text: limits.clipped((device.name ?? "Accessory") + (device.deviceID.map { " — " + $0 } ?? "")))
        var facts = "\(HTMLFormat.count(database.accessories.count, "accessory", "accessories")) in the database"
        if device.databaseVersions > 1 { facts += "; the last of \(device.databaseVersions) /accessories responses" }
        if let borrowed = device.databaseSource?.wording { facts += "; no /accessories in this capture, so \(borrowed)" }
        html.element("p", ["class": "muted"], text: facts + ".")
        if let diff = device.lastDatabaseDiff {
            html.element("details") { html in
                html.element("summary", text: "\(HTMLFormat.count(diff.changes.count, "change")) from the previous database")
                html.markup("<ul>")
                for change in diff.changes.prefix(limits.itemsPerList) { html.element("li", text: limits.clipped(Self.describe(change))) }
                html.markup("</ul>")
                html.omissionNote(diff.changes.count - limits.itemsPerList, "change", "changes", reason: listReason)
            }
        }
        if !database.diagnostics.isEmpty {
            html.element("details") { html in
                html.element("summary", ["class": "warn"], text: "\(HTMLFormat.count(database.diagnostics.count, "note")) from decoding the database")
                html.markup("<ul>")
                for diagnostic in database.diagnostics.prefix(limits.itemsPerList) {
                    html.element("li", text: limits.clipped(diagnostic.description))
                }
                html.markup("</ul>")
                html.omissionNote(database.diagnostics.count - limits.itemsPerList, "note", "notes", reason: listReason)
            }
        }
        let unfolded = database.accessories.count <= limits.unfoldedTreeAccessories
        for accessory in database.accessories.prefix(limits.accessoriesPerDatabase) {
            html.open("details", unfolded ? ["class": "accessory", "open": ""] : ["class": "accessory"])
            let services = accessory.services
                .filter { $0.type != HAPAccessory.accessoryInformationType && $0.type != Self.protocolInformationType }
                .map { $0.name ?? $0.type.displayString }
            html.element("summary", text: limits.clipped("aid \(accessory.aid) · \(accessory.name ?? "unnamed")"
                + (services.isEmpty ? "" : " · " + services.joined(separator: ", "))))
            for service in accessory.services.prefix(limits.itemsPerList) {
                writeService(service, aid: accessory.aid, device: device, &html)
            }
            html.omissionNote(accessory.services.count - limits.itemsPerList, "service", "services", reason: listReason)
            html.close("details")
            html.markup("\n")
        }
        html.omissionNote(database.accessories.count - limits.accessoriesPerDatabase, "accessory", "accessories",
                          reason: "the tree shows the first \(HTMLFormat.count(limits.accessoriesPerDatabase)) of a database")
    }

    private func writeService(_ service: HAPService, aid: UInt64, device: CaptureModel.Accessory, _ html: inout HTMLWriter) {
        // Accessory Information and Protocol Information rarely matter while debugging, so they
        // start folded, with the identity they carry in the summary line.
        let isInformation = service.type == HAPAccessory.accessoryInformationType || service.type == Self.protocolInformationType
        html.open("details", isInformation ? ["class": "service"] : ["class": "service", "open": ""])
        html.element("summary") { html in
            html.text("iid \(service.iid) · ")
            html.span("name", service.name ?? "Unknown service")
            html.text(" (\(service.type.displayString))")
            if service.isPrimary == true { html.text(" · primary") }
            if service.isHidden == true { html.text(" · hidden") }
            if let linked = service.linkedServices, !linked.isEmpty {
                html.text(" · linked to iid " + linked.map(String.init).joined(separator: ", "))
            }
            if isInformation {
                let identity = service.characteristics.compactMap { characteristic -> String? in
                    guard Self.identityTypes.contains(characteristic.type), case .string(let text)? = characteristic.value else { return nil }
                    return text
                }
                if !identity.isEmpty { html.span("identity", limits.clipped(" · " + identity.joined(separator: " · "))) }
            }
        }
        html.table(class: "characteristics", headers: ["iid", "Characteristic", "Format", "Unit", "Perms", "Value", "Seen in the capture", "Constraints"], numericColumns: [0]) { html in
            for characteristic in service.characteristics.prefix(limits.itemsPerList) {
                let id = CharacteristicID(aid: aid, iid: characteristic.iid)
                html.markup("<tr>")
                html.numberCell(String(characteristic.iid))
                html.element("td") { html in
                    html.text(limits.clipped(characteristic.name ?? characteristic.manufacturerDescription ?? "Unknown characteristic"))
                    html.markup(" ")
                    html.span("muted mono", characteristic.type.displayString)
                }
                html.cell(limits.clipped(characteristic.format?.description ?? characteristic.unrecognizedFormat ?? "—"))
                html.cell(limits.clipped(characteristic.unit.map { ValueText.unitSymbol($0) } ?? characteristic.unrecognizedUnit ?? ""))
                html.element("td", ["class": "mono wrap"], text: limits.clipped(Self.permissions(of: characteristic)))
                html.element("td") { html in
                    if let value = characteristic.value {
                        html.text(limits.clipped(HTMLFormat.value(value, type: characteristic.type, unit: characteristic.unit)))
                    } else {
                        html.span("muted", "—")
                    }
                    for issue in characteristic.valueIssues.prefix(limits.itemsPerList) {
                        html.markup("<br>")
                        html.span(issue.severity == .error ? "bad" : "warn", issue.description)
                    }
                }
                html.element("td") { html in
                    writeActivity(device.characteristics[id], type: characteristic.type, unit: characteristic.unit, &html)
                }
                html.cell(limits.clipped(Self.constraints(of: characteristic)))
                html.markup("</tr>\n")
            }
        }
        html.omissionNote(service.characteristics.count - limits.itemsPerList, "characteristic", "characteristics", reason: listReason)
        html.close("details")
        html.markup("\n")
    }

    private var listReason: String {
        "the report lists the first \(HTMLFormat.count(limits.itemsPerList))"
    }

    /// Protocol Information (`A2`), which carries the HAP version.
    private static let protocolInformationType = HAPUUID(appleDefined: 0xA2)

    /// Manufacturer, Model, Serial Number, Firmware Revision and Version: the identity strings.
    private static let identityTypes = Set<HAPUUID>([0x20, 0x21, 0x30, 0x52, 0x37].map(HAPUUID.init(appleDefined:)))

    private func writeActivity(
        _ record: CaptureModel.CharacteristicRecord?, type: HAPUUID, unit: CharacteristicUnit?, _ html: inout HTMLWriter
    ) {
        guard let record else {
            html.span("muted", "—")
            return
        }
        var counts: [String] = []
        if record.reads > 0 { counts.append(HTMLFormat.count(record.reads, "read")) }
        if record.writes > 0 { counts.append(HTMLFormat.count(record.writes, "write")) }
        if record.events > 0 { counts.append(HTMLFormat.count(record.events, "event")) }
        html.text(counts.isEmpty ? "subscribed" : counts.joined(separator: ", "))
        if let last = record.lastValue {
            html.markup("<br>")
            html.span("muted", "last: " + limits.clipped(HTMLFormat.value(last.value, type: type, unit: unit)))
        }
        if let status = record.lastStatus, !status.isSuccess {
            html.markup("<br>")
            html.span("bad", "status \(status)")
        }
    }

    private static func permissions(of characteristic: HAPCharacteristic) -> String {
        let names = (characteristic.permissions?.names ?? []) + characteristic.unrecognizedPermissions
        return names.isEmpty ? "—" : names.joined(separator: " ")
    }

    /// The metadata that bounds the values: range, step, length, valid values.
    private static func constraints(of characteristic: HAPCharacteristic) -> String {
        var parts: [String] = []
        switch (characteristic.minimumValue, characteristic.maximumValue) {
        case let (minimum?, maximum?): parts.append("\(minimum) … \(maximum)")
        case let (minimum?, nil): parts.append("≥ \(minimum)")
        case let (nil, maximum?): parts.append("≤ \(maximum)")
        case (nil, nil): break
        }
        if let step = characteristic.minimumStep { parts.append("step \(step)") }
        if let length = characteristic.maximumLength { parts.append("maxLen \(length)") }
        if let length = characteristic.maximumDataLength { parts.append("maxDataLen \(length)") }
        if let values = characteristic.validValues {
            let definition = characteristic.definition
            parts.append("valid " + values.map { value in
                definition?.name(ofValue: value).map { "\(value) \($0)" } ?? String(value)
            }.joined(separator: ", "))
        }
        if let ranges = characteristic.validValueRanges {
            parts.append("valid " + ranges.map { "\($0.lowerBound)…\($0.upperBound)" }.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    static func describe(_ change: AccessoryDatabaseDiff.Change) -> String {
        func serviceName(_ type: HAPUUID) -> String { HAPCatalog.service(type)?.name ?? type.displayString }
        func characteristicName(_ type: HAPUUID) -> String { HAPCatalog.characteristic(type)?.name ?? type.displayString }
        return switch change {
        case .accessoryAdded(let aid): "accessory \(aid) added"
        case .accessoryRemoved(let aid): "accessory \(aid) removed"
        case .serviceAdded(let aid, let iid, let type): "service \(aid).\(iid) \(serviceName(type)) added"
        case .serviceRemoved(let aid, let iid, let type): "service \(aid).\(iid) \(serviceName(type)) removed"
        case .serviceChanged(let aid, let iid, let fields):
            "service \(aid).\(iid): " + fields.map(\.description).joined(separator: "; ")
        case .characteristicAdded(let id, let type): "characteristic \(id) \(characteristicName(type)) added"
        case .characteristicRemoved(let id, let type): "characteristic \(id) \(characteristicName(type)) removed"
        case .characteristicMetadataChanged(let id, let fields):
            "characteristic \(id): " + fields.map(\.description).joined(separator: "; ")
        case .characteristicValueChanged(let id, let old, let new):
            "characteristic \(id) value: \(old?.description ?? "absent") → \(new?.description ?? "absent")"
        }
    }
}
