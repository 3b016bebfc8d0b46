import ArgumentParsing
import Capture
import Exports
import Reports

extension Command {
    static let writeCapture = OptionSpec(
        ["-w", "--write"], .value(name: "FILE"), valueKind: .file, help: "write the decrypted capture to FILE (- for standard output)")

    /// What `decrypt` takes: the analysis options that apply to reading and decrypting a capture.
    private static let decryptOptions = [writeCapture] + Options.analysis(
        excluding: Options.liveCapture + [Options.format, Options.output, Options.showKeys])

    static let decrypt = Command(spec: CommandSpec(
        name: "decrypt",
        summary: "Write a copy of the capture in which decrypted sessions carry their plaintext HTTP.",
        usage: "-w OUT [options] capture ...", options: decryptOptions, positionalName: "capture", positionalKind: .file,
        details: """
            Every session the key log opens (both directions) is rewritten from the switch to
            encrypted frames on: its frames become ordinary TCP packets carrying the plaintext,
            on the same endpoints, at the time of the packet that completed them, with sequence
            numbers, lengths and checksums made consistent, so that Wireshark and tshark dissect
            the HTTP (tshark -r OUT -d tcp.port==PORT,http -Y http). Everything else, sessions
            that cannot be decrypted included, is copied as it was. The output is a pcap file with
            the link type of the first input; packets of another link type are left out.
            Sessions over Bluetooth LE and CoAP are copied as they were (the account names
            them): their plaintext is in 'hapscope timeline' and 'hapscope events'.

            exit status: 0 written; 2 usage or input error (no -w, a missing or damaged capture,
            a bad key-log line).
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        guard let destination = invocation.arguments.value(writeCapture.key) else {
            throw CommandFailure("decrypt needs -w FILE: where to write the decrypted capture")
        }
        var configuration = try invocation.analysisConfiguration()
        configuration.emitsDecryptedData = true
        let reader = try AnalysisRun.openReader(invocation.captureFiles, invocation: invocation)
        guard let linkType = reader.currentLinkType else { throw CommandFailure("the capture holds no packet") }
        let export: DecryptedCaptureExport
        do throws(CaptureError) {
            export = try DecryptedCaptureExport(file: destination, linkType: linkType)
        } catch {
            throw CommandFailure(error.description)
        }
        // With the capture on standard output, the account goes to standard error.
        let account = destination == "-" ? FileOutput.standardError : FileOutput(flushesEveryRecord: false)
        let report = DecryptReport(output: account, destination: destination == "-" ? "standard output" : destination) {
            (export.packetsWritten, export.packetsReplaced)
        }
        var run = AnalysisRun(invocation: invocation, configuration: configuration)
        run.consumers = [export]
        run.packetObservers = [export]
        let outcome = run.run(reader, into: report)
        do throws(CaptureError) {
            try export.close()
        } catch {
            throw CommandFailure(error.description)
        }
        if !invocation.isQuiet { account.flush() }
        return outcome.status
    }
}
