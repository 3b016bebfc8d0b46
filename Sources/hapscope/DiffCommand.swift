import ArgumentParsing
import Capture
import Differences
import HAPAnalysis
import HAPCore
import HAPEvents
import HAPJSON
import Reports

extension Command {
    static let diffValues = OptionSpec(
        ["--values"], help: "compare characteristic values and ev too (left out by default: they change all the time)")
    static let diffFormat = OptionSpec(
        ["--format"], .value(name: "FORMAT"), choices: ["text", "json"], help: "the output format, text by default")

    static let diff = Command(spec: CommandSpec(
        name: "diff",
        summary: "What changed between two accessory databases: accessories, services, characteristics, iids.",
        usage: "[options] OLD NEW", options: [diffValues, Command.ignore, diffFormat, Options.dump, Options.keyLog, Options.noKeyLog, Options.limit,
                                             Options.output, Options.quiet, Options.noColor, Options.help],
        positionalName: "capture or dump", positionalKind: .file,
        details: """
            OLD and NEW are each a capture (the last GET /accessories of each accessory it holds,
            decrypted with --keylog and NAME.keylog beside it) or an /accessories dump (as 'hapscope tree' reads them). Lists
            the accessories, services and characteristics added and removed, those changed (type,
            format, perms, metadata) and those renumbered: the same type at the same place of the
            same accessory under another aid or iid. Elements are matched by what they are before
            how they are numbered. Two captures are compared accessory by accessory (by device ID);
            a single database on each side is compared whatever its accessory.

            Values and ev are left out unless --values is given; --ignore PATH leaves out more, as
            'hapscope check' does (e.g. --ignore '**.description').

            exit status: 0 the databases are the same; 1 they differ; 2 usage or input error, or no
            database in an input.
            """)) { invocation throws(CommandFailure) in
        let inputs = invocation.captureFiles
        guard inputs.count == 2 else {
            throw CommandFailure("diff compares two inputs, OLD and NEW (captures or dumps); \(inputs.count) given")
        }
        var ignoring: [IgnorePattern] = []
        if !invocation.arguments.has(diffValues.key) { ignoring += ["**.value", "**.ev"].compactMap { try? IgnorePattern($0) } }
        for text in invocation.arguments.values(Command.ignore.key) {
            do {
                ignoring.append(try IgnorePattern(text))
            } catch {
                throw CommandFailure("--ignore \(error)")
            }
        }
        let configuration = try invocation.analysisConfiguration()
        let forceDump = invocation.arguments.has(Options.dump.key)
        let old = try DatabaseSnapshot.read(inputs[0], forceDump: forceDump, configuration: configuration)
        let new = try DatabaseSnapshot.read(inputs[1], forceDump: forceDump, configuration: configuration)
        let pairs = DatabaseSnapshot.pairs(old, new)
        guard !pairs.isEmpty else {
            throw CommandFailure("no accessory is in both \(inputs[0]) and \(inputs[1]): nothing to compare")
        }
        var comparisons: [(old: DatabaseSnapshot.Database, new: DatabaseSnapshot.Database, changes: [DatabaseChange])] = []
        for (before, after) in pairs {
            guard let comparison = AccessoryDatabaseComparison(old: before.json, new: after.json, ignoring: ignoring) else { continue }
            comparisons.append((before, after, comparison.changes))
        }
        let output = try invocation.makeOutput(streaming: false)
        if invocation.arguments.value(diffFormat.key) == "json" {
            var writer = JSONWriter(reservingCapacity: 4096)
            func member(_ key: String, _ text: String) {
                writer.key(key)
                writer.string(text)
            }
            writer.beginObject()
            member("schema", EventJSON.schema)
            member("command", "diff")
            member("old", SystemInterface.baseName(inputs[0]))
            member("new", SystemInterface.baseName(inputs[1]))
            writer.key("ignored")
            writer.write(.array(ignoring.map { .string($0.text) }))
            writer.key("comparisons")
            writer.beginArray()
            for comparison in comparisons {
                writer.beginObject()
                member("oldSource", comparison.old.source)
                member("newSource", comparison.new.source)
                writer.key("changes")
                writer.beginArray()
                for change in comparison.changes { DifferenceJSON.write(change, into: &writer) }
                writer.endArray()
                writer.key("counts")
                writer.beginObject()
                for (kind, count) in Self.counts(comparison.changes) {
                    writer.key(kind)
                    writer.integer(Int64(count))
                }
                writer.endObject()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
            output.write(writer.text + "\n")
        } else {
            var lines: [String] = []
            for comparison in comparisons {
                lines.append("\(comparison.old.source) → \(comparison.new.source)")
                lines += comparison.changes.map { "  " + TerminalText.sanitized($0.description) }
                let counts = Self.counts(comparison.changes)
                lines.append(comparison.changes.isEmpty
                    ? "  the same accessories, services and characteristics"
                        + (ignoring.isEmpty ? "" : " (left out: \(ignoring.map(\.text).joined(separator: ", ")))")
                    : "\(comparison.changes.count) change(s): " + counts.map { "\($0.value) \($0.kind)" }.joined(separator: ", "))
            }
            output.write(lines.joined(separator: "\n") + "\n")
        }
        output.endOfRecord()
        output.flush()
        if let failure = output.failure { throw CommandFailure(failure) }
        return comparisons.contains { !$0.changes.isEmpty } ? .findings : .success
    }

    /// Changes counted by kind, in the order the kinds are listed.
    private static func counts(_ changes: [DatabaseChange]) -> [(kind: String, value: Int)] {
        [DatabaseChange.Kind.added, .removed, .renumbered, .changed].compactMap { kind in
            let count = changes.count { $0.kind == kind }
            return count == 0 ? nil : (kind.rawValue, count)
        }
    }
}
