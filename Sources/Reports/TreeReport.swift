import HAPEvents
import HAPCatalog
import HAPJSON
import Packets

/// `hapscope tree`: the accessory → service → characteristic tree, with catalogue names,
/// formats, units, permissions and values, drawn with box-drawing characters.
///
/// From a capture, the last `/accessories` database of each accessory is shown. A dump (the body
/// of `GET /accessories`, or the list form aiohomekit and homekit_python save) is shown with
/// `addDump(_:source:)`.
public final class TreeReport: EndOfRunReport {
    public var clock = CaptureClock()
    let output: ReportOutput
    let settings: ReportSettings
    private var trees: [Tree] = []
    private var indexByKey: [String: Int] = [:]
    private let retentionLimit: Int
    private var droppedAccessories = 0
    /// The Name values controllers read, by tree key: HAP over Bluetooth LE and CoAP databases
    /// carry no values, so an accessory's name is known only from a read of it.
    private var namesRead: [String: [CharacteristicID: String]] = [:]
    /// Names kept per accessory at most (a database has one per service that names itself).
    private static let maximumNamesPerAccessory = 64

    /// One database to draw, and where it came from.
    struct Tree {
        var key: String
        var database: AccessoryDatabase?
        var error: String?
        var source: Source
        var versions: Int
        var bodyLength: Int?
    }

    enum Source {
        case capture(packet: PacketInfo?, connection: ConnectionInfo, deviceID: String?, from: AccessoryDatabaseEvent.Source)
        case file(String)
    }

    public init(output: ReportOutput, settings: ReportSettings, retentionLimit: Int = 1_000) {
        self.output = output
        self.settings = settings
        self.retentionLimit = retentionLimit
    }

    public func take(_ event: HAPEvent) {
        if case .characteristic(let activity) = event.kind {
            noteName(activity)
            return
        }
        guard case .accessoryDatabase(let database) = event.kind else { return }
        let key = database.deviceID ?? database.connection.accessory.description
        let source = Source.capture(packet: event.packet, connection: database.connection, deviceID: database.deviceID, from: database.source)
        if let index = indexByKey[key] {
            // A response replaces what an earlier file or --accessories gave; never the reverse.
            let hadResponse = if case .capture(_, _, _, .response) = trees[index].source { true } else { false }
            if database.source != .response, hadResponse { return }
            trees[index].versions = hadResponse ? trees[index].versions + 1 : 1
            // A body that could not be read leaves the last good tree in place, with the error noted.
            if let new = database.database {
                trees[index].database = new
                trees[index].error = nil
            } else {
                trees[index].error = database.error?.description
            }
            trees[index].source = source
            trees[index].bodyLength = database.bodyByteCount
        } else if trees.count < retentionLimit {
            indexByKey[key] = trees.count
            trees.append(Tree(key: key, database: database.database, error: database.error?.description, source: source, versions: 1,
                              bodyLength: database.bodyByteCount))
        } else {
            droppedAccessories += 1
        }
    }

    private func noteName(_ activity: CharacteristicActivity) {
        guard activity.type == TreeText.nameType, case .string(let name)? = activity.value?.value else { return }
        let key = activity.deviceID ?? activity.connection.accessory.description
        guard namesRead[key] != nil || namesRead.count < retentionLimit else { return }
        guard namesRead[key]?[activity.id] != nil || namesRead[key, default: [:]].count < Self.maximumNamesPerAccessory else { return }
        namesRead[key, default: [:]][activity.id] = name
    }

    /// Adds a database read from a file (`name` as the user gave it).
    public func addDump(_ database: AccessoryDatabase, source name: String) {
        trees.append(Tree(key: name, database: database, error: nil, source: .file(name), versions: 1, bodyLength: nil))
    }

    // MARK: Text

    /// `findings` have no place in it.
    func writeText(findings _: [Finding]?) {
        let style = settings.style
        if trees.isEmpty {
            output.write("no accessory database: the capture holds no readable GET /accessories response"
                + " (encrypted sessions need a key log, see --keylog)\n")
            return
        }
        for (index, tree) in trees.enumerated() {
            if index > 0 { output.write("\n") }
            output.write(title(tree) + "\n")
            if let error = tree.error {
                output.write(style.paint("! the last /accessories body could not be read: \(TerminalText.sanitized(error))", .warning) + "\n")
            }
            guard let database = tree.database else { continue }
            for line in TreeText(style: style, namesRead: namesRead[tree.key] ?? [:]).lines(database) { output.write(line + "\n") }
        }
        if droppedAccessories > 0 {
            output.write(style.paint("… \(droppedAccessories) more accessories not kept", .dim) + "\n")
        }
    }

    private func title(_ tree: Tree) -> String {
        let style = settings.style
        let first = tree.database?.accessories.first
        let name = first.flatMap { TreeText(style: style, namesRead: namesRead[tree.key] ?? [:]).name(of: $0) } ?? "accessory"
        switch tree.source {
        case .capture(let packet, let connection, let deviceID, let from):
            var text = style.paint(name, .heading)
            if let deviceID { text += "  " + TerminalText.sanitized(deviceID) }
            text += "  \(connection.accessory)"
            if let borrowed = from.wording {
                return text + style.paint("  no /accessories in this capture; \(borrowed), first used on #\(connection.id)", .dim)
            }
            var origin = connection.transport.databaseReadName
            if let packet { origin += " at #\(packet.number) (\(clock.relativeText(packet.timestamp)))" }
            origin += " on #\(connection.id)"
            if let length = tree.bodyLength { origin += ", \(length) bytes" }
            if tree.versions > 1 { origin += "; the last of \(tree.versions)" }
            return text + style.paint("  " + origin, .dim)
        case .file(let file):
            return style.paint(name, .heading) + style.paint("  from \(TerminalText.sanitized(file))", .dim)
        }
    }

    // MARK: JSON

    private func writeTree(_ tree: Tree, into writer: inout JSONWriter) {
        switch tree.source {
        case .capture(let packet, let connection, let deviceID, let from):
            writer.packetMembers(packet, clock: clock)
            EventJSON.writeConnection(connection, into: &writer)
            writer.member("deviceID", deviceID)
            writer.member("source", from.jsonName)
            writer.member("sourceName", from.origin)
            writer.member("bodyLength", tree.bodyLength)
            writer.member("versions", tree.versions)
        case .file(let file):
            writer.member("file", file)
        }
        writer.member("error", tree.error)
        if let database = tree.database {
            writer.member("form", database.form == .accessoriesObject ? "accessories-object" : "accessory-list")
            EventJSON.writeDatabase(database, into: &writer)
            writer.objects("conformance", database.conformanceIssues()) { writer, issue in EventJSON.writeDiagnostic(issue, into: &writer) }
        }
    }

    func writeJSON(findings _: [Finding]?) {
        writeJSONDocument(command: "tree", to: output, reservingCapacity: 8192) { writer in
            writer.objects("databases", trees) { writer, tree in writeTree(tree, into: &writer) }
            writer.member("databasesNotKept", droppedAccessories)
        }
    }

    func writeNDJSON(findings _: [Finding]?) {
        let lines = NDJSONLines(output: output)
        lines.header(command: "tree")
        for tree in trees {
            lines.line("accessory-database") { writer in writeTree(tree, into: &writer) }
        }
    }
}

/// The box-drawing tree of one database.
struct TreeText {
    /// Name (`23`).
    static let nameType = HAPUUID(appleDefined: 0x23)

    let style: TextStyle
    /// Name values read by controllers, for databases that carry no values.
    var namesRead: [CharacteristicID: String] = [:]

    /// The accessory's Name from its Accessory Information: the database's value, else the last
    /// one a controller read.
    func name(of accessory: HAPAccessory) -> String? {
        let name = accessory.name ?? accessory.accessoryInformation?.characteristic(ofType: Self.nameType)
            .flatMap { namesRead[CharacteristicID(aid: accessory.aid, iid: $0.iid)] }
        return name.map(TerminalText.sanitized)
    }

    func lines(_ database: AccessoryDatabase) -> [String] {
        var lines: [String] = []
        for (index, accessory) in database.accessories.enumerated() {
            let last = index == database.accessories.count - 1
            let name = name(of: accessory) ?? "(no name)"
            lines.append((last ? "└─ " : "├─ ") + style.paint("aid \(accessory.aid)", .dim) + "  " + style.paint(name, .heading))
            lines += services(accessory, prefix: last ? "   " : "│  ")
        }
        let problems = Self.problems(database)
        for diagnostic in problems.prefix(20) {
            lines.append(style.paint("! \(TerminalText.sanitized(diagnostic.description))", diagnostic.severity == .note ? .dim : .warning))
        }
        if problems.count > 20 {
            lines.append(style.paint("… \(problems.count - 20) more diagnostics (--format json lists them all)", .dim))
        }
        return lines
    }

    /// What decoding noticed, then what breaks HAP's rules for a database (duplicate ids, missing
    /// Accessory Information, …). Value problems are left out: the tree shows them beside the value.
    static func problems(_ database: AccessoryDatabase) -> [HAPJSONDiagnostic] {
        database.diagnostics + database.conformanceIssues().filter { !$0.code.rawValue.hasPrefix("value-") }
    }

    private func services(_ accessory: HAPAccessory, prefix: String) -> [String] {
        var lines: [String] = []
        for (index, service) in accessory.services.enumerated() {
            let last = index == accessory.services.count - 1
            var title = style.paint("iid \(service.iid)", .dim) + "  "
                + style.paint(service.name ?? "Unknown service", .heading) + style.paint("  \(service.type.displayString)", .dim)
            var flags: [String] = []
            if service.isPrimary == true { flags.append("primary") }
            if service.isHidden == true { flags.append("hidden") }
            if let linked = service.linkedServices, !linked.isEmpty { flags.append("linked " + linked.map(String.init).joined(separator: ",")) }
            if !flags.isEmpty { title += "  (" + flags.joined(separator: ", ") + ")" }
            lines.append(prefix + (last ? "└─ " : "├─ ") + title)
            lines += characteristics(service, prefix: prefix + (last ? "   " : "│  "))
        }
        return lines
    }

    private func characteristics(_ service: HAPService, prefix: String) -> [String] {
        let rows = service.characteristics.map(row)
        let aligned = SummaryText.aligned(rows, indent: "")
        var lines: [String] = []
        for (index, text) in aligned.enumerated() {
            let last = index == aligned.count - 1
            lines.append(prefix + (last ? "└─ " : "├─ ") + text)
            // A TLV8 value of known structure, field by field under its row.
            let characteristic = service.characteristics[index]
            if let structure = StructureText.structure(ofDatabaseValue: characteristic.value, type: characteristic.type) {
                lines += StructureText.lines(structure, style: style).map { prefix + (last ? "      " : "│     ") + $0 }
            }
        }
        return lines
    }

    /// iid, name, format, unit and range, permissions, value.
    private func row(_ characteristic: HAPCharacteristic) -> [String] {
        let metadata = characteristic.metadata
        let name = characteristic.name ?? "Unknown \(characteristic.type.displayString)"
        var format = metadata.format?.wireName ?? metadata.unrecognizedFormat.map(TerminalText.sanitized) ?? "?"
        if let unit = metadata.unit { format += " " + ValueText.unitSymbol(unit) }
        var range = ""
        if let minimum = metadata.minimumValue, let maximum = metadata.maximumValue { range = "\(minimum)…\(maximum)" }
        if let step = metadata.minimumStep { range += (range.isEmpty ? "" : " ") + "step \(step)" }
        if let values = metadata.validValues { range += (range.isEmpty ? "" : " ") + "values " + values.map(String.init).joined(separator: ",") }
        if let length = metadata.maximumLength { range += (range.isEmpty ? "" : " ") + "maxLen \(length)" }
        let permissions = ((metadata.permissions?.names ?? []) + metadata.unrecognizedPermissions.map(TerminalText.sanitized)).joined(separator: " ")
        var value = ""
        let structure = StructureText.structure(ofDatabaseValue: characteristic.value, type: characteristic.type)
        if let typed = StructureText.printable(characteristic.value, structure: structure) {
            value = ValueText.describe(typed, type: characteristic.type, unit: metadata.unit)
            if !characteristic.valueIssues.isEmpty {
                value = style.paint(value + " (" + characteristic.valueIssues.map(\.description).joined(separator: "; ") + ")", .warning)
            }
        }
        return [style.paint("\(characteristic.iid)", .dim), name, format, range, permissions, value]
    }
}
