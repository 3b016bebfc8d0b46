import HTTP1
import Testing
import WireParsing

@Suite struct HTTPHeadersTests {
    private func headers(_ text: String) throws -> HTTPHeaders {
        let bytes = Fixtures.text("HTTP/1.1 200 OK\r\n" + text + "\r\n")
        var found: HTTPHeaders?
        var parser = HTTPStreamParser()
        try bytes.span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
            try parser.feed(buffer) { if case .message(let message) = $0 { found = message.headers } }
        }
        return try #require(found)
    }

    @Test func fieldsKeepWireOrderAndOriginalCase() throws {
        let fields = try headers("content-TYPE: application/hap+json\r\nX-A: 1\r\nx-a:2\r\nContent-Length: 0\r\n")
        #expect(fields.map(\.name) == ["content-TYPE", "X-A", "x-a", "Content-Length"])
        #expect(fields.map(\.value) == ["application/hap+json", "1", "2", "0"])
        #expect(fields.map(\.offset) == [17, 53, 61, 68])
    }

    @Test func lookupIgnoresTheCaseOfTheName() throws {
        let fields = try headers("X-A: 1\r\nx-a:2\r\nContent-Length: 0\r\n")
        #expect(fields["x-A"] == "1")
        #expect(fields.values(named: "X-a") == ["1", "2"])
        #expect(fields.contains(named: "CONTENT-LENGTH"))
        #expect(!fields.contains(named: "Content-Type"))
        #expect(fields["Content-Type"] == nil)
        #expect(fields.firstIndex(named: "content-length") == 2)
    }

    @Test func valuesLoseTheWhitespaceAroundThemOnly() throws {
        let fields = try headers("A: \t spaced  value \t\r\nB:\r\nC:   \r\nContent-Length: 0\r\n")
        #expect(fields["A"] == "spaced  value")
        #expect(fields["B"] == "")
        #expect(fields["C"] == "")
        #expect(Array(fields.valueBytes(at: 0)) == Array("spaced  value".utf8))
    }

    @Test func nonASCIIValueBytesPassThrough() throws {
        let fields = try headers("Host: Caf\u{e9}\\032Bridge._hap._tcp.local\r\nContent-Length: 0\r\n")
        #expect(fields["host"] == "Caf\u{e9}\\032Bridge._hap._tcp.local")
    }
}
