import WireParsing

/// The first line of a message, as offsets into the message's bytes.
enum HTTPStartLine: Hashable, Sendable {
    case request(HTTPRequestLine.Layout)
    case status(HTTPStatusLine.Layout)

    /// Reads the start line at index 0 of `text`: a status line when it begins with `HTTP/`, an
    /// event when it begins with `EVENT/` (HAP §5.3 of the fact sheet), a request otherwise.
    static func parse(_ text: HTTPText, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> (HTTPStartLine, next: Int) {
        switch text[0] {
        case UInt8(ascii: "H") where text.hasPrefix("HTTP/", at: 0):
            let (layout, next) = try HTTPStatusLine.parse(text, isEvent: false, diagnostics: &diagnostics)
            return (.status(layout), next)
        case UInt8(ascii: "E") where text.hasPrefix("EVENT/", at: 0):
            let (layout, next) = try HTTPStatusLine.parse(text, isEvent: true, diagnostics: &diagnostics)
            return (.status(layout), next)
        default:
            let (layout, next) = try HTTPRequestLine.parse(text, diagnostics: &diagnostics)
            return (.request(layout), next)
        }
    }

    var kind: HTTPMessage.Kind {
        switch self {
        case .request: .request
        case .status(let layout): layout.isEvent ? .event : .response
        }
    }

    var version: HTTPVersion {
        switch self {
        case .request(let layout): layout.version
        case .status(let layout): layout.version
        }
    }
}
