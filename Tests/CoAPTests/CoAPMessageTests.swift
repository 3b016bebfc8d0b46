import Testing
import WireParsing
@testable import CoAP

@Suite("CoAP messages")
struct CoAPMessageTests {
    @Test("RFC 7252 Figure 16 style: a CON GET with a token and Uri-Path, answered by a piggybacked ACK")
    func getAndAck() throws {
        // CON, TKL 2, GET, MID 0x7d34, token 0x1234, Uri-Path "temperature".
        let request = try message(hex("42 01 7d34 1234 bb 74656d7065726174757265")).get()
        #expect(request.type == .confirmable && request.code == .get && request.messageID == 0x7D34)
        #expect(request.token == CoAPToken(bytes: [0x12, 0x34]) && request.token.description == "1234")
        #expect(request.uriPath == "/temperature" && request.payload.isEmpty)
        let response = try message(hex("62 45 7d34 1234 ff 32322e3320430a")).get()
        #expect(response.type == .acknowledgement && response.code == .content && response.code.description == "2.05 Content")
        #expect(response.payload == Array("22.3 C\n".utf8))
    }

    @Test("HAP over CoAP: a CON POST to / with an encrypted payload (aiohomekit 4.0.1, no options)")
    func hapPost() throws {
        let decoded = try message(hex("44 02 0001 a1b2c3d4 ff") + Array(repeating: 0xAB, count: 20)).get()
        #expect(decoded.code == .post && decoded.options.isEmpty && decoded.uriPath == "/" && decoded.payload.count == 20)
        #expect(decoded.token.length == 4)
    }

    @Test("Option deltas add up, with the 13 and 14 extensions (RFC 7252 §3.1)")
    func optionExtensions() throws {
        // Uri-Path "a" (11), Content-Format 0 (12, empty), then option 300 by delta 288 (14 → 269 + 19), length 13 + 1.
        let value = [UInt8](repeating: 0x61, count: 14)
        let decoded = try message(hex("40 02 0001 b1 61 10 ed 0013 01") + value).get()
        #expect(decoded.options.map(\.number.rawValue) == [11, 12, 300])
        #expect(decoded.options[2].value == value)
        #expect(decoded.firstOption(.contentFormat)?.unsignedValue == 0)
        #expect(decoded.encoded == hex("40 02 0001 b1 61 10 ed 0013 01") + value)
    }

    @Test("Format errors are malformed, at the byte that broke the rule", arguments: [
        ("80 01 0001", 0), // version 2
        ("49 01 0001 000102030405060708", 0), // token length 9
        ("40 01 0001 f1 00", 4), // option delta 15 that is not the marker
        ("40 01 0001 1f", 4), // option length 15
        ("40 01 0001 ff", 4), // payload marker with no payload
        ("41 00 0001 00", 0), // Empty message with a token
        ("40 00 0001 ff 00", 0), // Empty message with bytes after the header
        ("40 01 0001 e0 fef2 10", 7), // option number past 65535 (65535, then one more)
    ])
    func formatErrors(_ bytes: String, _ offset: Int) {
        let error = message(hex(bytes)).error
        #expect(error == DecodeError(.malformed, layer: .coap, offset: 0, expected: ""))
        #expect(error?.offset == offset)
    }

    @Test("Every prefix of a message is truncated (or, for the header alone, a whole message)")
    func dripFed() {
        let bytes = hex("42 01 7d34 1234 bb 74656d7065726174757265")
        for count in 0 ..< 4 {
            #expect(message(Array(bytes[..<count])).error == DecodeError(.truncated, layer: .coap, offset: 0, expected: ""))
        }
        for count in 4 ..< 6 {
            #expect(message(Array(bytes[..<count])).error?.code == .truncated)
        }
        for count in 7 ..< bytes.count {
            #expect(message(Array(bytes[..<count])).error?.code == .truncated, "prefix \(count)")
        }
    }

    @Test("An Empty ACK and a RST are four bytes")
    func empty() throws {
        #expect(try message(hex("60 00 1234")).get() == CoAPMessage(type: .acknowledgement, code: .empty, messageID: 0x1234))
        #expect(try message(hex("70 00 1234")).get().type == .reset)
    }

    @Test("Encoding sorts options and round-trips")
    func roundTrip() throws {
        let original = CoAPMessage(
            type: .nonConfirmable, code: .put, messageID: 7, token: CoAPToken(bytes: [1, 2, 3, 4, 5, 6, 7, 8]),
            options: [CoAPOption(number: .block2, value: [0x0E]), CoAPOption(number: .uriPath, value: Array("1".utf8))],
            payload: [1, 2, 3])
        let decoded = try message(original.encoded).get()
        #expect(decoded.options.map(\.number) == [.uriPath, .block2])
        #expect(decoded.payload == [1, 2, 3] && decoded.token == original.token)
        #expect(try decoded.block2 == CoAPBlockOption(number: 0, hasMore: true, sizeExponent: 6))
    }

    @Test("A bound on options per message")
    func optionLimit() {
        let bytes = hex("40 01 0001") + [UInt8](repeating: 0x00, count: CoAPMessage.maximumOptionCount + 1)
        #expect(message(bytes).error?.code == .limitExceeded)
    }
}
