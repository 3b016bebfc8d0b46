import ArgumentParsing
import Capture
import HAPJSON
import Reports

extension Command {
    static let treeDump = OptionSpec(
        ["--dump"], help: "read every input as an /accessories JSON dump, standard input included")

    static let tree = Command(spec: CommandSpec(
        name: "tree",
        summary: "The accessory → service → characteristic tree: names, formats, units, permissions, values.",
        usage: "[options] [capture|dump.json ...]",
        options: [treeDump] + Options.analysis, positionalName: "capture or dump", positionalKind: .file,
        details: """
            From a capture, the last GET /accessories response of each accessory is drawn (an
            encrypted session needs its key log). A file whose first character is { or [ is read
            as an /accessories dump instead: the body an accessory sends, or the list that
            aiohomekit and homekit_python save, e.g. from a firmware log. Use --dump to read
            standard input as a dump.
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        let inputs = invocation.captureFiles
        let forceDump = invocation.arguments.has(treeDump.key)
        let dumps = inputs.filter { forceDump || isJSONDump($0) }
        let captures = inputs.filter { !dumps.contains($0) }
        let configuration = try invocation.analysisConfiguration()
        let databases = try dumps.map { (path) throws(CommandFailure) in
            (try readDump(path, limits: configuration.limits.json), SystemInterface.baseName(path))
        }
        let makeReport = { (output: FileOutput) -> TreeReport in
            let report = TreeReport(output: output, settings: invocation.reportSettings)
            for (database, name) in databases { report.addDump(database, source: name) }
            return report
        }
        if captures.isEmpty, !databases.isEmpty, !invocation.arguments.has(Options.interface.key) {
            let output = try invocation.makeOutput(streaming: false)
            makeReport(output).finish(findings: nil)
            output.flush()
            if let failure = output.failure { throw CommandFailure(failure) }
            return .success
        }
        return try analyse(invocation, configuration: configuration, files: captures, streams: false, makeReport: makeReport).status
    }

    /// Whether a regular file is JSON rather than a capture: it has no pcap or pcapng magic number
    /// and starts, after white space and a byte-order mark, with `{` or `[`.
    private static func isJSONDump(_ path: String) -> Bool {
        guard path != "-", let bytes = SystemInterface.firstBytes(of: path, count: 64),
              CaptureFormat.detect(prefix: bytes) == nil else { return false }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    private static func readDump(_ path: String, limits: JSONLimits) throws(CommandFailure) -> AccessoryDatabase {
        var bytes = try SystemInterface.readFile(path, limit: limits.maximumDocumentSize)
        // A byte-order mark is not JSON, but editors on some systems add one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        do {
            return try AccessoryDatabase(bytes: bytes, limits: limits)
        } catch {
            throw CommandFailure("\(path == "-" ? "standard input" : path): not an /accessories dump: \(error)")
        }
    }
}
