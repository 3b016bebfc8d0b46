import ArgumentParsing
import HAPAnalysis
import HAPJSON
import Reports

extension Command {
    static let treeDump = OptionSpec(
        ["--dump"], help: "read every input as an /accessories JSON dump, standard input included")

    static let tree = Command(spec: CommandSpec(
        name: "tree",
        summary: "The accessory → service → characteristic tree: names, formats, units, permissions, values.",
        usage: "[options] [capture|dump.json ...]",
        options: [treeDump] + Options.analysis, positionalName: "capture or dump",
        details: """
            From a capture, the last GET /accessories response of each accessory is drawn (an
            encrypted session needs its key log). A file whose first character is { or [ is read
            as an /accessories dump instead: the body an accessory sends, or the list that
            aiohomekit and homekit_python save, e.g. from a firmware log. Use --dump to read
            standard input as a dump.

            \(Options.analysisDetails)
            """)) { invocation throws(CommandFailure) in
        let inputs = invocation.captureFiles
        let forceDump = invocation.arguments.has(treeDump.key)
        let dumps = inputs.filter { forceDump || isJSONDump($0) }
        let configuration = try invocation.analysisConfiguration()
        let output = try invocation.makeOutput(streaming: false)
        let report = TreeReport(output: output, settings: invocation.reportSettings)
        for path in dumps {
            report.addDump(try readDump(path, limits: configuration.limits.json), source: SystemInterface.baseName(path))
        }
        let captures = inputs.filter { !dumps.contains($0) }
        guard captures.isEmpty, !dumps.isEmpty else {
            let driver = CaptureFileDriver(invocation: invocation, configuration: configuration)
            return try driver.run(into: report, output: output, files: captures)
        }
        report.finish(findings: nil)
        output.flush()
        if let failure = output.failure { throw CommandFailure(failure) }
        return .success
    }

    /// Whether a regular file starts, after white space, with `{` or `[`: no capture file does
    /// (pcap and pcapng start with binary magic numbers).
    private static func isJSONDump(_ path: String) -> Bool {
        guard path != "-", let bytes = SystemInterface.firstBytes(of: path, count: 64) else { return false }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
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
