import HAPEvents
import HAPJSON
import TLV8
import WireParsing

/// `hapscope tlv`: a TLV8 blob from a firmware log, decoded strictly (the first error, with its
/// byte offset) and leniently (every item that can be read, and every problem), and, when asked,
/// as a pair-setup, pair-verify or `/pairings` message.
public struct TLVReport {
    public let bytes: [UInt8]
    /// Where the bytes came from, as the user named it.
    public let source: String
    public let procedure: PairingProcedure?
    /// What a strict reader (HomeKitADK's) throws at, if anything.
    public let strictError: DecodeError?
    public let body: TLV8Body
    /// The message decoded for `procedure`: its state and its diagnostics.
    public let messageState: PairingState?
    public let messageDiagnostics: [PairingDiagnostic]
    public let messageName: String?

    public init(bytes: [UInt8], source: String, as procedure: PairingProcedure? = nil) {
        self.bytes = bytes
        self.source = source
        self.procedure = procedure
        var strict = ByteCursor(bytes.span.bytes, layer: .tlv8)
        do {
            _ = try TLV8Body(parsing: &strict)
            strictError = nil
        } catch {
            strictError = error
        }
        var lenient = ByteCursor(bytes.span.bytes, layer: .tlv8)
        body = TLV8Body(parsingLeniently: &lenient)
        guard let procedure else {
            (messageState, messageDiagnostics, messageName) = (nil, [], nil)
            return
        }
        let decoded = PairingContent.decode(body, as: procedure)
        (messageState, messageDiagnostics) = (decoded.state, decoded.diagnostics)
        messageName = decoded.content.map(Self.name)
    }

    /// Whether the blob breaks no rule: the strict decode succeeds and, with a procedure, the
    /// message has no diagnostics.
    public var isClean: Bool {
        strictError == nil && body.diagnostics.isEmpty && messageDiagnostics.isEmpty
    }

    private static func name(_ content: PairingContent) -> String {
        switch content {
        case .pairSetup(.error(let response)), .pairVerify(.error(let response)): "error response at \(response.state)"
        case .pairSetup(let message): "Pair Setup \(message.state)"
        case .pairVerify(let message): "Pair Verify \(message.state)"
        case .pairings(let message): PairingText.name(of: message)
        }
    }

    /// The report in `format`.
    public func render(_ settings: ReportSettings) -> String {
        switch settings.format {
        case .text: text(settings.style)
        case .json, .ndjson: json(settings.format) + "\n"
        }
    }

    private func text(_ style: TextStyle) -> String {
        var lines = [style.paint("\(bytes.count) bytes", .heading) + " from \(TerminalText.sanitized(source))"]
        if let strictError {
            lines.append(style.paint("strict decode: \(strictError.code) at byte \(strictError.offset): expected \(strictError.expected)", .bad))
            lines.append("lenient decode (what a tolerant reader such as aiohomekit or HAP-python reads):")
        } else {
            lines.append(style.paint("strict decode: ok", .good))
        }
        lines += TLVText.itemLines(body, style: style, header: true)
        if let procedure {
            let name = messageName ?? "not a \(procedure) message: no step could be told"
            lines.append("as \(procedure): " + style.paint(name, messageName == nil ? .bad : .heading))
            let own = messageDiagnostics.filter { if case .tlv8 = $0.kind { false } else { true } }
            if own.isEmpty {
                lines.append(style.paint("  no diagnostics", .good))
            }
            for diagnostic in own {
                lines.append("  " + style.paint("! \(diagnostic)", .warning))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func json(_ format: ReportFormat) -> String {
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.beginObject()
        if format == .ndjson { writer.member("type", "tlv") }
        writer.member("schema", EventJSON.schema)
        writer.member("command", "tlv")
        writer.member("source", source)
        writer.member("length", bytes.count)
        writer.member("hex", hex: bytes)
        writer.object("strict") { writer in
            writer.member("ok", strictError == nil)
            if let strictError {
                writer.member("layer", strictError.layer.rawValue)
                writer.member("code", strictError.code.rawValue)
                writer.member("offset", strictError.offset)
                writer.member("expected", strictError.expected)
            }
        }
        EventJSON.writeItems(body, into: &writer)
        writer.objects("diagnostics", body.diagnostics) { writer, diagnostic in
            writer.member("code", diagnostic.code.rawValue)
            writer.member("offset", diagnostic.offset)
            writer.member("message", diagnostic.description)
        }
        if let procedure {
            writer.object("message") { writer in
                writer.member("procedure", procedure.rawValue)
                writer.member("state", messageState?.description)
                writer.member("name", messageName)
                EventJSON.writeDiagnostics(messageDiagnostics, into: &writer)
            }
        }
        writer.member("clean", isClean)
        writer.endObject()
        return writer.text
    }
}

/// How `hapscope tlv` reads its argument: hex (spaces, colons and a `0x` prefix allowed), base64,
/// or raw bytes from a file.
public enum TLVInput {
    public enum Encoding: String, CaseIterable, Sendable {
        case hex, base64, raw
    }

    /// The bytes `text` spells. With no encoding given: hex when the text is only hex digits and
    /// separators, else base64 when it decodes as such, else the bytes as they are when they are
    /// not printable text (a binary file); nil when none fits.
    public static func decode(_ input: [UInt8], as encoding: Encoding? = nil) -> [UInt8]? {
        switch encoding {
        case .raw?: return input
        case .hex?: return hex(input)
        case .base64?: return base64(input)
        case nil:
            if let bytes = hex(input) { return bytes }
            if let bytes = base64(input) { return bytes }
            let printable = input.allSatisfy { (0x20 ... 0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            return printable ? nil : input
        }
    }

    private static func hex(_ input: [UInt8]) -> [UInt8]? {
        var digits = input.filter { !isSeparator($0) }
        if digits.count >= 2, digits[0] == UInt8(ascii: "0"), digits[1] | 0x20 == UInt8(ascii: "x") {
            digits.removeFirst(2)
        }
        guard !digits.isEmpty else { return nil }
        return Hex.decode(String(decoding: digits, as: UTF8.self))
    }

    private static func base64(_ input: [UInt8]) -> [UInt8]? {
        let text = input.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard !text.isEmpty else { return nil }
        return Base64.decode(String(decoding: text, as: UTF8.self))
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ":")
    }
}
