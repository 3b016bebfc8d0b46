import HAPAnalysis
import HAPCore
import HAPEvents
import HTTP1
import Testing
import TestSupport
import TLV8

/// Hostile HAP streams inside well-formed TCP: HTTP framing that asks for absurd sizes or never
/// ends, TLV8 lengths past the body, JSON nested past any accessory's needs, bytes that are not
/// UTF-8. Each is reported with its stream or body offset, the connection's later messages are
/// decoded where HTTP can find them again, and a HAP exchange after it is decoded.
@Suite("Hostile HAP streams")
struct HostileStreamTests {
    /// A HAP connection whose controller sends `hostile` and then `GET /accessories`, in separate segments.
    private static func connection(sending hostile: [UInt8], port: UInt16 = 49_260) -> [[UInt8]] {
        var tcp = TCPConversation(controllerPort: port)
        var frames = tcp.handshake()
        // A HAP request first, so that the connection is recognised by its content.
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        for piece in stride(from: 0, to: hostile.count, by: 1_400) {
            frames.append(tcp.controllerSends(Array(hostile[piece ..< min(piece + 1_400, hostile.count)])))
        }
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/characteristics?id=1.2")))
        return frames + tcp.close()
    }

    private func requestTargets(_ analysis: Analysis, port: UInt16 = 49_260) -> [String] {
        analysis.httpMessages.filter { $0.connection.controller.port == port }.compactMap { $0.message.requestLine?.target }
    }

    @Test("A Content-Length of a hundred terabytes is refused at once as a limit, and the connection's next request is decoded")
    func hugeContentLength() throws {
        let hostile = Array("PUT /characteristics HTTP/1.1\r\nContent-Length: 99999999999999\r\n\r\n".utf8)
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: Self.connection(sending: hostile) + exchange.frames)

        let problem = try #require(analysis.problems(.undecodableHTTP).first { $0.message.contains("limit exceeded") })
        #expect(problem.message.contains("controller-to-accessory"))
        // The offset of the value, in the controller's stream, after the first request.
        let valueOffset = HTTPText.request("GET", "/accessories").count + "PUT /characteristics HTTP/1.1\r\nContent-Length: ".utf8.count
        #expect(problem.message.contains("http: limit exceeded at byte \(valueOffset)"))
        #expect(problem.message.contains("a Content-Length of at most 16777216 bytes"))
        #expect(requestTargets(analysis) == ["/accessories", "/characteristics?id=1.2"])
        #expect(analysis.decoded(exchange))
    }

    @Test("A Content-Length beyond 64 bits is refused, and the connection's next request is decoded")
    func contentLengthBeyondSixtyFourBits() throws {
        let hostile = Array("PUT /characteristics HTTP/1.1\r\nContent-Length: 184467440737095516160000\r\n\r\n".utf8)

        let analysis = try Analysis(frames: Self.connection(sending: hostile))

        #expect(!analysis.problems(.undecodableHTTP).isEmpty)
        #expect(requestTargets(analysis) == ["/accessories", "/characteristics?id=1.2"])
    }

    @Test("A chunk size of seventy-two bits is refused with its offset, and the next response is decoded")
    func hugeChunkSize() throws {
        var tcp = TCPConversation(controllerPort: 49_261)
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/hap+json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        frames.append(tcp.accessorySends(head + Array("FFFFFFFFFFFFFFFFFF\r\n".utf8)))
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        frames.append(tcp.accessorySends(HTTPText.response(body: HAPExchange.database, contentType: "application/hap+json")))
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        let problem = try #require(analysis.problems(.undecodableHTTP).first { $0.message.contains("accessory-to-controller") && $0.message.contains("http:") })
        #expect(problem.message.contains("at byte \(head.count)"))
        #expect(analysis.databases.contains { $0.database?.accessories.first?.name == "Hostile Test Light" })
    }

    @Test("A header block that never ends is cut off at the header limit, and the connection's next request is decoded")
    func headerThatNeverEnds() throws {
        let hostile = Array("GET /accessories HTTP/1.1\r\nX-Padding: ".utf8) + [UInt8](repeating: 0x61, count: 80_000) + Array("\r\n\r\n".utf8)
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: Self.connection(sending: hostile) + exchange.frames)

        let problem = try #require(analysis.problems(.undecodableHTTP).first { $0.message.contains("limit exceeded") })
        #expect(problem.message.contains("a header block of at most 65536 bytes"))
        #expect(requestTargets(analysis) == ["/accessories", "/characteristics?id=1.2"])
        #expect(analysis.decoded(exchange))
    }

    @Test("A header block of thousands of fields is cut off at the field limit")
    func tooManyFields() throws {
        let fields = (0 ..< 2_000).map { "X-Field-\($0): 1\r\n" }.joined()
        let hostile = Array("GET /accessories HTTP/1.1\r\n\(fields)\r\n".utf8)

        let analysis = try Analysis(frames: Self.connection(sending: hostile))

        let problem = try #require(analysis.problems(.undecodableHTTP).first { $0.message.contains("limit exceeded") })
        #expect(problem.message.contains("128"))
        #expect(requestTargets(analysis) == ["/accessories", "/characteristics?id=1.2"])
    }

    @Test("A TLV8 item whose length runs past the body is kept as a diagnostic with its offset in the pairing message")
    func tlvLengthPastTheEnd() throws {
        var tcp = TCPConversation(controllerPort: 49_262)
        var frames = tcp.handshake()
        // State M1, Method PairSetup, then a public key item that declares 200 bytes and holds 3.
        let body: [UInt8] = [0x06, 0x01, 0x01, 0x00, 0x01, 0x00, 0x03, 0xC8, 0x01, 0x02, 0x03]
        frames.append(tcp.controllerSends(HTTPText.request("POST", "/pair-setup", body: body, contentType: "application/pairing+tlv8")))
        frames += tcp.close()
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames)

        let message = try #require(analysis.pairingMessages.first { $0.connection.controller.port == 49_262 })
        #expect(message.state == .m1)
        #expect(message.diagnostics.contains(PairingDiagnostic(
            .tlv8(.truncatedValue(type: .publicKey, declaredLength: 200, availableLength: 3)), offset: 6)))
        #expect(analysis.decoded(exchange))
    }

    @Test("An accessory database nested ten thousand levels deep is refused at the depth limit with its offset")
    func deeplyNestedJSON() throws {
        let nested = [UInt8](repeating: UInt8(ascii: "["), count: 10_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 10_000)
        var tcp = TCPConversation(controllerPort: 49_263)
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        let response = HTTPText.response(body: nested, contentType: "application/hap+json")
        for piece in stride(from: 0, to: response.count, by: 1_400) {
            frames.append(tcp.accessorySends(Array(response[piece ..< min(piece + 1_400, response.count)])))
        }
        frames += tcp.close()
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames)

        let refused = try #require(analysis.databases.first { $0.connection.controller.port == 49_263 })
        #expect(refused.database == nil)
        #expect(refused.error?.description.contains("json: limit exceeded at byte 64") == true)
        #expect(analysis.decoded(exchange))
    }

    @Test("Bytes that are not UTF-8 inside a JSON string refuse the body with the offset of the byte that breaks the sequence")
    func invalidUTF8InJSON() throws {
        let prefix = Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","format":"string","value":""#.utf8)
        let body = prefix + [0x4C, 0xC3, 0x28, 0xFF] + Array(#""}]}]}]}"#.utf8)
        var tcp = TCPConversation(controllerPort: 49_264)
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        frames.append(tcp.accessorySends(HTTPText.response(body: body, contentType: "application/hap+json")))
        frames += tcp.close()
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames)

        let refused = try #require(analysis.databases.first { $0.connection.controller.port == 49_264 })
        #expect(refused.database == nil)
        // "L", then 0xC3 opens a two-byte sequence that 0x28 does not continue.
        #expect(refused.error?.description.contains("json: malformed at byte \(prefix.count + 2)") == true, "\(refused.error?.description ?? "")")
        #expect(refused.error?.description.contains("UTF-8 continuation byte") == true)
        #expect(analysis.decoded(exchange))
    }

    @Test("A pairing identifier that is not UTF-8 is decoded with a diagnostic naming its item")
    func invalidUTF8Identifier() throws {
        var tcp = TCPConversation(controllerPort: 49_265)
        var frames = tcp.handshake()
        // HAP: Add Pairing M1 — State, Method 3, Identifier (not UTF-8), PublicKey, Permissions.
        let body: [UInt8] = [0x06, 0x01, 0x01, 0x00, 0x01, 0x03, 0x01, 0x04, 0xC3, 0x28, 0xFF, 0xFE]
            + [0x03, 0x20] + [UInt8](repeating: 0x11, count: 32) + [0x0B, 0x01, 0x01]
        frames.append(tcp.controllerSends(HTTPText.request("POST", "/pairings", body: body, contentType: "application/pairing+tlv8")))
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        let message = try #require(analysis.pairingMessages.first)
        #expect(message.diagnostics.contains(PairingDiagnostic(.identifierNotUTF8, offset: 6)))
        guard case .pairings(.addPairingM1(let add))? = message.content else {
            Issue.record("expected an Add Pairing M1, found \(String(describing: message.content))")
            return
        }
        #expect(add.identifier?.string == nil)
        #expect(add.publicKey?.count == 32)
    }

    @Test("Header bytes that are not UTF-8 do not stop the message from being decoded")
    func invalidUTF8InHeader() throws {
        let hostile = Array("PUT /characteristics HTTP/1.1\r\nX-Name: ".utf8) + [0xC3, 0x28, 0xFF] + Array("\r\nContent-Length: 2\r\n\r\n{}".utf8)

        let analysis = try Analysis(frames: Self.connection(sending: hostile))

        #expect(requestTargets(analysis) == ["/accessories", "/characteristics", "/characteristics?id=1.2"])
        let put = try #require(analysis.httpMessages.first { $0.message.requestLine?.method.rawValue == "PUT" })
        #expect(put.message.headers["X-Name"]?.unicodeScalars.contains("\u{FFFD}") == true)
    }
}
