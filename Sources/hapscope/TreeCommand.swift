import ArgumentParsing
import Capture
import HAPJSON
import Reports

extension Command {
    static let tree = Command(spec: CommandSpec(
        name: "tree",
        summary: "The accessory → service → characteristic tree: names, formats, units, permissions, values.",
        usage: "[options] [capture|dump.json ...]",
        options: [Options.dump] + Options.analysis, positionalName: "capture or dump", positionalKind: .file,
        details: """
            From a capture, the last GET /accessories response of each accessory is drawn (an
            encrypted session needs its key log). A file whose first character is { or [ is read
            as an /accessories dump instead: the body an accessory sends, or the list that
            aiohomekit and homekit_python save, e.g. from a firmware log. Use --dump to read
            standard input as a dump.
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        let inputs = invocation.captureFiles
        let forceDump = invocation.arguments.has(Options.dump.key)
        let dumps = inputs.filter { forceDump || DumpInput.isDump($0) }
        let captures = inputs.filter { !dumps.contains($0) }
        let configuration = try invocation.analysisConfiguration()
        let databases = try dumps.map { (path) throws(CommandFailure) in
            (try DumpInput.database(path, limits: configuration.limits.json).database, SystemInterface.baseName(path))
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
}
