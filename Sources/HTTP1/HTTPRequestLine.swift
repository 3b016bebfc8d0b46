import WireParsing

/// The first line of a request: `PUT /characteristics HTTP/1.1`. RFC 9112 §3.
public struct HTTPRequestLine: Hashable, Sendable {
    public var method: HTTPMethod
    /// The request target as sent; `HAPRequestTarget` reads HAP's paths and queries from it.
    public var target: String
    public var version: HTTPVersion

    public init(method: HTTPMethod, target: String, version: HTTPVersion) {
        self.method = method
        self.target = target
        self.version = version
    }

    /// Where the parts of a request line sit in the message's bytes.
    struct Layout: Hashable, Sendable {
        var method: Range<Int>
        var target: Range<Int>
        var version: HTTPVersion
    }

    /// Reads `method SP request-target SP HTTP-version` and its line ending, starting at index 0
    /// of `text`; returns the layout and the index of the next line.
    static func parse(_ text: HTTPText, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> (Layout, next: Int) {
        var index = 0
        while index < text.count, ASCII.isTokenCharacter(text[index]) { index += 1 }
        guard index > 0 else { throw text.malformed("a method token or HTTP/1.x at the start of a message", at: 0) }
        guard index < text.count, text[index] == ASCII.space else {
            throw text.malformed("a single space after the method (RFC 9112 §3)", at: index)
        }
        let method = 0 ..< index

        let targetStart = index + 1
        index = targetStart
        // RFC 9112 §3.2: the target is visible US-ASCII; HAP only sends origin-form paths.
        while index < text.count, text[index] &- 0x21 < 0x5E { index += 1 }
        guard index > targetStart else { throw text.malformed("a request target", at: targetStart) }
        guard index < text.count, text[index] == ASCII.space else {
            throw text.malformed("a single space after the request target (RFC 9112 §3)", at: index)
        }
        let target = targetStart ..< index

        let versionStart = index + 1
        guard text.hasPrefix("HTTP/", at: versionStart) else {
            throw text.malformed("HTTP/1.x after the request target", at: versionStart)
        }
        let version = try HTTPVersion.parseDigits(text, at: versionStart + 5)
        guard version.major == 1 else { throw text.unsupported("HTTP/1.x", at: versionStart + 5) }
        let next = try text.lineEnding(at: versionStart + 8, "the end of the request line", diagnostics: &diagnostics)
        return (Layout(method: method, target: target, version: version), next)
    }
}

extension HTTPVersion {
    /// Reads `DIGIT "." DIGIT` at `index`. RFC 9112 §2.3.
    static func parseDigits(_ text: HTTPText, at index: Int) throws(DecodeError) -> HTTPVersion {
        guard index + 2 < text.count, ASCII.isDigit(text[index]), text[index + 1] == ASCII.period,
              ASCII.isDigit(text[index + 2])
        else { throw text.malformed("a version DIGIT.DIGIT", at: index) }
        return HTTPVersion(major: Int(text[index] &- 0x30), minor: Int(text[index + 2] &- 0x30))
    }
}
