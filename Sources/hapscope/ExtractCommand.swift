import ArgumentParsing
import Exports
import Foundation
import Reports

extension Command {
    static let extractDirectory = OptionSpec(
        ["-d", "--directory"], .value(name: "DIR"), valueKind: .directory, help: "write the bodies and manifest.json into DIR (created if needed)")

    private static let extractOptions = [extractDirectory] + Options.analysis.filter {
        ![Options.format, Options.output, Options.showKeys].map(\.key).contains($0.key)
    }

    static let extract = Command(spec: CommandSpec(
        name: "extract",
        summary: "Write every TLV8 and JSON body of a capture as a file, with a manifest of where each came from.",
        usage: "-d DIR [options] [capture ...]", options: extractOptions, positionalName: "capture", positionalKind: .file,
        details: """
            Each pairing body (application/pairing+tlv8) and HAP JSON body (application/hap+json),
            decrypted where the key log allows, becomes a file named
            NNNN-c<connection>-<controller|accessory>-<endpoint>[-<state>].<tlv8|json>, so that
            firmware teams can feed real messages to their own parser tests. manifest.json lists
            each file with its connection, endpoints, direction, start line, packet numbers, time
            and whether it was encrypted.

            exit status: 0 written; 2 usage or input error, or a file that cannot be written.
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        guard let directory = invocation.arguments.value(extractDirectory.key) else {
            throw CommandFailure("extract needs -d DIR: where to write the bodies")
        }
        let configuration = try invocation.analysisConfiguration()
        let extractor: BodyExtractor
        do {
            extractor = try BodyExtractor(directory: URL(fileURLWithPath: directory))
        } catch {
            throw CommandFailure("\(directory): \(error.localizedDescription)")
        }
        let outcome = try analyse(invocation, configuration: configuration, streams: false, consumers: [extractor]) { output in
            ExtractReport(output: output, directory: extractor.directory.path) { (extractor.filesWritten, extractor.failure) }
        }
        if let failure = extractor.failure { throw CommandFailure(failure) }
        return outcome.status
    }
}
