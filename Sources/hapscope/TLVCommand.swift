import ArgumentParsing
import Reports
import TLV8

extension Command {
    static let tlvProcedure = OptionSpec(
        ["--as"], .value(name: "PROCEDURE"), choices: ["pair-setup", "pair-verify", "pairings"],
        help: "also decode the blob as a message of this pairing procedure")
    static let tlvEncoding = OptionSpec(
        ["--encoding"], .value(name: "ENCODING"), choices: TLVInput.Encoding.allCases.map(\.rawValue),
        help: "how the input spells the bytes; by default hex if it is hex, else base64, else raw")

    static let tlv = Command(spec: CommandSpec(
        name: "tlv",
        summary: "Decode a TLV8 blob, e.g. from a firmware log: strict errors with offsets, lenient decode anyway.",
        usage: "[options] HEX|BASE64|@FILE|-",
        options: [tlvProcedure, tlvEncoding, Options.format, Options.output, Options.noColor, Options.help],
        positionalName: "blob",
        details: """
            The blob is hex (spaces, colons and a 0x prefix are ignored) or base64 on the command
            line (several words are joined), @FILE for a file, or - for standard input; a file may
            hold hex, base64 or raw bytes. The strict decode stops at the first problem, as
            HomeKitADK's reader does, and names it with its byte offset; the lenient decode below it
            reads everything it can, as aiohomekit and HAP-python do.

            exit status: 0 the blob breaks no rule; 1 the strict decode failed or the message has
            diagnostics; 2 usage or input error (unreadable file, not hex or base64).
            """)) { invocation throws(CommandFailure) in
        let positionals = invocation.arguments.positionals
        guard !positionals.isEmpty else {
            throw CommandFailure("tlv needs a blob: hex, base64, @FILE or - (see 'hapscope tlv --help')")
        }
        // Hex copied from a log often arrives as separate words: `hapscope tlv 06 01 02`.
        if positionals.count > 1, positionals.contains(where: { $0 == "-" || $0.hasPrefix("@") }) {
            throw CommandFailure("tlv reads one blob: @FILE and - stand alone")
        }
        let argument = positionals.joined(separator: " ")
        let source: String
        let input: [UInt8]
        if argument == "-" {
            (source, input) = ("standard input", try SystemInterface.readFile("-", limit: 16 << 20))
        } else if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            (source, input) = (SystemInterface.baseName(path), try SystemInterface.readFile(path, limit: 16 << 20))
        } else {
            (source, input) = ("the command line", Array(argument.utf8))
        }
        let encoding = invocation.arguments.value(tlvEncoding.key).flatMap(TLVInput.Encoding.init(rawValue:))
        guard let bytes = TLVInput.decode(input, as: encoding) else {
            throw CommandFailure("\(source): not \(encoding.map { "valid \($0.rawValue)" } ?? "hex or base64"); "
                + "give the bytes as hex, base64, or a binary @FILE")
        }
        let procedure = invocation.arguments.value(tlvProcedure.key).flatMap(PairingProcedure.init(rawValue:))
        let report = TLVReport(bytes: bytes, source: source, as: procedure)
        let output = try invocation.makeOutput(streaming: false)
        output.write(report.render(invocation.reportSettings))
        output.flush()
        if let failure = output.failure { throw CommandFailure(failure) }
        return report.isClean ? .success : .findings
    }
}
