import WireParsing

/// The first line of a response, `HTTP/1.1 207 Multi-Status`, or of a HAP event,
/// `EVENT/1.0 200 OK`. RFC 9112 §4.
public struct HTTPStatusLine: Hashable, Sendable {
    /// The version after `HTTP/`, or after `EVENT/` for an event.
    public var version: HTTPVersion
    public var status: HTTPStatus
    /// Free text that a client ignores (RFC 9112 §4); may be empty.
    public var reasonPhrase: String

    public init(version: HTTPVersion, status: HTTPStatus, reasonPhrase: String) {
        self.version = version
        self.status = status
        self.reasonPhrase = reasonPhrase
    }

    /// Where the parts of a status line sit in the message's bytes.
    struct Layout: Hashable, Sendable {
        var isEvent: Bool
        var version: HTTPVersion
        var status: HTTPStatus
        var reasonPhrase: Range<Int>
    }

    /// Reads `HTTP-version SP status-code SP reason-phrase` and its line ending from index 0 of
    /// `text`, which begins with `EVENT/` when `isEvent` and with `HTTP/` otherwise.
    static func parse(_ text: HTTPText, isEvent: Bool, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> (Layout, next: Int) {
        let versionStart = isEvent ? 6 : 5
        let version = try HTTPVersion.parseDigits(text, at: versionStart)
        // HAP: EVENT/1.0 is the only event version; brutella/hap derives it from HTTP/1.0.
        guard version.major == 1 else {
            throw text.unsupported(isEvent ? "EVENT/1.x" : "HTTP/1.x", at: versionStart)
        }
        let codeStart = versionStart + 4
        guard codeStart - 1 < text.count, text[codeStart - 1] == ASCII.space else {
            throw text.malformed("a single space after the version (RFC 9112 §4)", at: codeStart - 1)
        }
        var code = 0
        for index in codeStart ..< codeStart + 3 {
            guard index < text.count, ASCII.isDigit(text[index]) else {
                throw text.malformed("a three-digit status code", at: index)
            }
            code = code * 10 + Int(text[index] &- 0x30)
        }
        // RFC 9110 §15: values outside 100...599 are invalid.
        guard (100 ... 599).contains(code) else {
            throw text.malformed("a status code from 100 to 599", at: codeStart)
        }
        let afterCode = codeStart + 3
        let reasonStart: Int
        let reasonEnd: Int
        let next: Int
        if afterCode < text.count, text[afterCode] == ASCII.space {
            reasonStart = afterCode + 1
            (reasonEnd, next) = try text.lineContent(from: reasonStart, "a reason phrase", diagnostics: &diagnostics)
        } else {
            // The grammar wants SP before an empty reason phrase; `HTTP/1.1 200` followed by the
            // line ending is common enough to accept as an empty one.
            reasonStart = afterCode
            reasonEnd = afterCode
            next = try text.lineEnding(at: afterCode, "a space or the end of the status line", diagnostics: &diagnostics)
        }
        let layout = Layout(
            isEvent: isEvent, version: version, status: HTTPStatus(rawValue: code),
            reasonPhrase: reasonStart ..< reasonEnd)
        return (layout, next)
    }
}
