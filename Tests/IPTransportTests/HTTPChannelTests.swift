import HAPEvents
import HTTP1
import Testing
import TestSupport
import WireParsing
@testable import IPTransport

@Suite("One direction of a connection's HTTP")
struct HTTPChannelTests {
    let channel = HTTPChannel(.controllerToAccessory, limits: HTTPLimits())
    let recorder = HTTPChannelRecorder()

    @Test("a message split over pieces is delivered once whole, naming the packets of its first and last byte")
    func acrossPieces() {
        channel.feed("GET /accessories HTTP/1.1\r\n", packet: 1, to: recorder)
        channel.feed("Host: a\r\n", packet: 2, to: recorder)
        #expect(recorder.parsed.isEmpty)
        channel.feed("\r\nGET /characteristics?id=1.2 HTTP/1.1\r\n\r\n", packet: 3, to: recorder)
        #expect(recorder.targets == ["/accessories", "/characteristics?id=1.2"])
        #expect(recorder.parsed.map(\.firstPacket) == [1, 3])
        #expect(recorder.parsed.map(\.lastPacket) == [3, 3], "both were completed by packet 3")
        #expect(channel.streamOffset == "GET /accessories HTTP/1.1\r\nHost: a\r\n\r\nGET /characteristics?id=1.2 HTTP/1.1\r\n\r\n".utf8.count)
    }

    @Test("fed one byte a packet, every message is delivered and its packets are exact",
          arguments: ["PUT /characteristics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", "HTTP/1.1 204 No Content\r\n\r\n"])
    func byteByByte(text: String) {
        for (index, byte) in text.utf8.enumerated() { channel.feed([byte], packet: index + 1, to: recorder) }
        #expect(recorder.parsed.count == 1)
        #expect(recorder.parsed.first?.firstPacket == 1)
        #expect(recorder.parsed.first?.lastPacket == text.utf8.count)
    }

    @Test("bytes that are not part of a message are reported as discarded, with their reason")
    func discards() {
        channel.feed("\r\n\r\nGET /accessories HTTP/1.1\r\n\r\n", packet: 1, to: recorder)
        #expect(recorder.discarded.map(\.bytes) == [HTTPDiscardedBytes(range: 0 ..< 4, reason: .emptyLines)])
        #expect(recorder.targets == ["/accessories"])
    }

    @Test("an error is reported, then the parser resumes after it and delivers the rest of the piece")
    func errorThenResume() {
        channel.feed("GET /a HTTP/1.1\r\nContent-Length: nope\r\n\r\nGET /b HTTP/1.1\r\n\r\n", packet: 4, to: recorder)
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.packet == 4)
        #expect(recorder.failures.first?.error.layer == .http)
        #expect(recorder.discarded.contains { $0.bytes.reason == .failedMessage })
        #expect(recorder.targets == ["/b"])
    }

    @Test("several errors in one piece are each reported, and what lies between them delivered")
    func severalErrors() {
        let bad = "GET /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n"
        channel.feed(bad + "GET /1 HTTP/1.1\r\n\r\n" + bad + "GET /2 HTTP/1.1\r\n\r\n", packet: 1, to: recorder)
        #expect(recorder.failures.count == 2)
        #expect(recorder.targets == ["/1", "/2"])
    }

    @Test("a limit reached is an error carrying the limit's name")
    func limit() {
        let small = HTTPChannel(.accessoryToController, limits: HTTPLimits(maxBodySize: 4))
        small.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", packet: 1, to: recorder)
        #expect(recorder.failures.first?.error.limit == .httpBody)
    }

    @Test("a switch to frames while a piece is parsed drops the rest of that piece, and a new stream begins")
    func restartWhileRunning() {
        recorder.onMessage = { channel, message in
            if message.requestLine?.target == "/pair-verify" { channel.restartForEncryptedFrames() }
        }
        channel.feed("POST /pair-verify HTTP/1.1\r\nContent-Length: 0\r\n\r\nGET /not-plaintext HTTP/1.1\r\n\r\n", packet: 1, to: recorder)
        #expect(recorder.targets == ["/pair-verify"], "what followed in the piece is frames, for the caller to decrypt")
        #expect(channel.streamOffset == 0)
        channel.feed("GET /accessories HTTP/1.1\r\n\r\n", packet: 2, to: recorder)
        #expect(recorder.targets == ["/pair-verify", "/accessories"])
        #expect(recorder.parsed.last?.message.startOffset == 0, "the frames' plaintext is a stream of its own")
        #expect(recorder.parsed.last?.firstPacket == 2)
    }

    @Test("a switch to frames between pieces drops nothing")
    func restartBetweenPieces() {
        channel.feed("GET /a HTTP/1.1\r\n\r\n", packet: 1, to: recorder)
        channel.restartForEncryptedFrames()
        channel.feed("GET /b HTTP/1.1\r\n\r\n", packet: 2, to: recorder)
        #expect(recorder.targets == ["/a", "/b"])
        #expect(recorder.parsed.map(\.message.startOffset) == [0, 0])
    }

    @Test("stray plaintext is parsed on its own, and the frame stream's message in progress is undisturbed")
    func strayPlaintext() {
        channel.feed("GET /characteristics?id=1.2 HTTP/1.1\r\nHo", packet: 1, to: recorder)
        Array("HTTP/1.1 204 No Content\r\n\r\n".utf8).withUnsafeBytes {
            channel.parseStrayPlaintext($0, packet: .numbered(2), to: recorder)
        }
        #expect(recorder.parsed.map(\.stray) == [true])
        #expect(recorder.parsed.first?.firstPacket == 2)
        #expect(!channel.isParsingStrayPlaintext)
        channel.feed("st: a\r\n\r\n", packet: 3, to: recorder)
        #expect(recorder.parsed.map(\.stray) == [true, false])
        #expect(recorder.parsed.last?.message.requestLine?.target == "/characteristics?id=1.2")
        #expect(recorder.parsed.last?.firstPacket == 1)
        #expect(recorder.parsed.last?.lastPacket == 3)
    }

    @Test("stray plaintext cut short is reported as incomplete, on its own")
    func strayCutShort() {
        Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort".utf8).withUnsafeBytes {
            channel.parseStrayPlaintext($0, packet: .numbered(1), to: recorder)
        }
        #expect(recorder.parsed.isEmpty)
        #expect(recorder.failures.first?.error.code == .truncated)
        #expect(recorder.discarded.map(\.bytes.reason) == [.incompleteMessage])
        channel.feed("GET /a HTTP/1.1\r\n\r\n", packet: 2, to: recorder)
        #expect(recorder.targets == ["/a"])
    }

    @Test("skipped bytes end the message in progress, and parsing resumes at the next start line")
    func skip() {
        channel.feed("GET /lost HTTP/1.1\r\nHo", packet: 1, to: recorder)
        channel.skip(10, packet: .numbered(2), to: recorder)
        channel.feed("garbage\r\nGET /found HTTP/1.1\r\n\r\n", packet: 3, to: recorder)
        #expect(recorder.targets == ["/found"])
        let reasons = recorder.discarded.map(\.bytes.reason)
        #expect(reasons.contains(.incompleteMessage))
        #expect(reasons.contains(.missingBytes))
        #expect(reasons.contains(.unrecognisedBytes))
        #expect(channel.streamOffset == 22 + 10 + 32)
    }

    @Test("at the end, a response framed by the connection's end is delivered; a message cut short is reported")
    func finish() {
        let accessory = HTTPChannel(.accessoryToController, limits: HTTPLimits())
        accessory.feed("HTTP/1.1 200 OK\r\n\r\nuntil the end", packet: 1, to: recorder)
        #expect(recorder.parsed.isEmpty)
        accessory.finish(packet: .numbered(2), to: recorder)
        #expect(recorder.parsed.map(\.message.body).map { String(decoding: $0, as: UTF8.self) } == ["until the end"])
        channel.feed("GET /cut", packet: 3, to: recorder)
        channel.finish(packet: .numbered(4), to: recorder)
        #expect(recorder.failures.map(\.packet) == [4])
    }
}
