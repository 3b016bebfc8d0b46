import HAPCrypto
import Packets
import HAPEvents
import Testing
import TestSupport
@testable import IPTransport

@Suite("One direction of an encrypted session")
struct EncryptedChannelTests {
    let key = PairVerifyTranscript().sessionKeys.controllerToAccessory
    let recorder = EncryptedChannelRecorder()
    let plaintext = Array("PUT /characteristics HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}".utf8) + [UInt8](repeating: 0x20, count: 2500)

    private func channel(key: ChaCha20Poly1305.Key? = nil, maximumFrameLength: Int = 65535) -> EncryptedChannel {
        EncryptedChannel(.controllerToAccessory, key: key ?? self.key, maximumFrameLength: maximumFrameLength)
    }

    @Test("frames are decrypted whatever pieces they arrive in, and counted")
    func anySplit() {
        let bytes = frames(plaintext, key: key)
        var random = SeededRandom(seed: 1)
        for round in 0 ..< 40 {
            let channel = channel()
            let recorder = EncryptedChannelRecorder()
            for (index, piece) in randomPieces(bytes, count: round % 10, &random).enumerated() {
                channel.receive(piece, packet: index + 1, to: recorder)
            }
            #expect(recorder.plaintext == plaintext)
            #expect(recorder.problems.isEmpty)
            #expect(channel.frames.frames == 3)
            #expect(channel.frames.largestFrame == 1024)
            #expect(channel.frames.plaintextBytes == plaintext.count)
            #expect(channel.frames.ciphertextBytes == bytes.count)
            #expect(channel.hasDecrypted)
            #expect(channel.isDecrypting)
        }
    }

    @Test("a frame is handed on with the packet that completed it")
    func framePackets() {
        let bytes = frames(Array("0123456789".utf8) + Array("abc".utf8), key: key, maximumFrameLength: 10)
        let channel = channel()
        channel.receive(Array(bytes.prefix(20)), packet: 1, to: recorder)
        channel.receive(Array(bytes.dropFirst(20)), packet: 2, to: recorder)
        #expect(recorder.framePackets == [2, 2])
        #expect(channel.frames.firstFrameTime == PacketInfo.numbered(2).timestamp)
    }

    @Test("a frame longer than HAP's 1024 bytes is decoded, counted, and reported once")
    func oversizeFrames() {
        let big = [UInt8](repeating: 0x41, count: 3000)
        let channel = channel()
        channel.receive(frames(big, key: key, maximumFrameLength: 1500), packet: 1, to: recorder)
        #expect(recorder.plaintext == big)
        #expect(channel.frames.oversizeFrames == 2)
        #expect(recorder.problems == [.init(kind: .oversizeFrame, counter: 0, packet: 1)])
    }

    @Test("a frame longer than the frame.length limit stops the direction, naming the limit")
    func beyondTheLimit() {
        let channel = channel(maximumFrameLength: 1024)
        channel.receive(frames([UInt8](repeating: 1, count: 2000), key: key, maximumFrameLength: 2000), packet: 1, to: recorder)
        #expect(recorder.limits == [.frameLength])
        #expect(recorder.problems.map(\.kind) == [.frameBoundaryLost])
        #expect(!channel.isDecrypting)
    }

    @Test("a first frame that does not open with the logged key means the key is not this session's")
    func keyDoesNotFit() {
        let channel = channel(key: .stranger)
        channel.receive(frames(plaintext, key: key), packet: 1, to: recorder)
        #expect(recorder.problems == [.init(kind: .keyDoesNotFit, counter: 0, packet: 1)])
        #expect(recorder.messages.first?.contains("not this session's key") == true)
        #expect(recorder.plaintext.isEmpty)
        #expect(!channel.isDecrypting)
        channel.receive(frames(plaintext, key: key), packet: 2, to: recorder)
        #expect(recorder.problems.count == 1, "a direction stopped stays stopped")
    }

    @Test("a later frame that fails authentication is a forgery, reported with its counter")
    func forgedLaterFrame() {
        var bytes = frames(plaintext, key: key)
        bytes[1024 + 18 + 10] ^= 0x01
        let channel = channel()
        channel.receive(bytes, packet: 1, to: recorder)
        #expect(recorder.problems == [.init(kind: .authenticationFailed, counter: 1, packet: 1)])
        #expect(recorder.plaintext == Array(plaintext.prefix(1024)), "the frame before it was handed on")
    }

    @Test("a frame sealed with a later counter is a skipped counter; with an earlier one, a reused nonce")
    func skippedAndReusedCounters() {
        var encryptor = HAPFrameEncryptor(key: key)
        let first = try! encryptor.seal([1, 2, 3].span.bytes)
        encryptor.nextCounter = 3
        let skipping = try! encryptor.seal([4].span.bytes)
        let skipped = channel()
        skipped.receive(first + skipping, packet: 1, to: recorder)
        encryptor.nextCounter = 0
        let reusing = try! encryptor.seal([5].span.bytes)
        let reused = channel()
        let other = EncryptedChannelRecorder()
        reused.receive(first + reusing, packet: 1, to: other)
        #expect(recorder.problems.map(\.kind) == [.counterSkipped])
        #expect(recorder.problems.first?.counter == 1)
        #expect(other.problems.map(\.kind) == [.counterReused])
    }

    @Test("a gap inside a frame whose length arrived loses that frame only")
    func gapInsideAFrame() {
        let bytes = frames(Array("first".utf8) + Array("lost!".utf8) + Array("third".utf8), key: key, maximumFrameLength: 5)
        let frameLength = 5 + 18
        let channel = channel()
        channel.receive(Array(bytes.prefix(frameLength + 4)), packet: 1, to: recorder)
        channel.skipGap(UInt64(frameLength - 4 - 2), packet: .numbered(2), to: recorder)
        channel.receive(Array(bytes.suffix(from: 2 * frameLength - 2)), packet: 3, to: recorder)
        #expect(recorder.lostFrames == [2])
        #expect(String(decoding: recorder.plaintext, as: UTF8.self) == "first" + "third")
        #expect(recorder.problems.isEmpty)
        #expect(channel.isDecrypting)
    }

    @Test("a gap at a frame boundary hides where the next frame starts, and stops the direction")
    func gapAtABoundary() {
        let bytes = frames(Array("firstsecond".utf8), key: key, maximumFrameLength: 5)
        let channel = channel()
        channel.receive(Array(bytes.prefix(5 + 18)), packet: 1, to: recorder)
        channel.skipGap(3, packet: .numbered(2), to: recorder)
        #expect(recorder.problems.map(\.kind) == [.gap])
        #expect(recorder.problems.first?.packet == 2)
        #expect(!channel.isDecrypting)
        channel.receive(Array(bytes.dropFirst(5 + 18 + 3)), packet: 3, to: recorder)
        #expect(String(decoding: recorder.plaintext, as: UTF8.self) == "first")
    }

    @Test("without a key, frames are followed and counted across any split, until a gap loses the boundary")
    func keyless() {
        let bytes = frames(plaintext, key: key)
        let channel = EncryptedChannel(.accessoryToController, key: nil, maximumFrameLength: 65535)
        var random = SeededRandom(seed: 5)
        for piece in randomPieces(bytes, count: 7, &random) { channel.receive(piece, packet: 1, to: recorder) }
        #expect(channel.frames.frames == 3)
        #expect(channel.frames.ciphertextBytes == bytes.count)
        #expect(!channel.isDecrypting)
        #expect(!channel.hasDecrypted)
        channel.skipGap(10, packet: .numbered(2), to: recorder)
        channel.receive(bytes, packet: 3, to: recorder)
        #expect(channel.frames.frames == 3, "after a gap the boundaries are unknown")
        #expect(channel.frames.ciphertextBytes == 2 * bytes.count, "the bytes are still counted")
        #expect(recorder.problems.isEmpty)
    }

    @Test("a session encrypted before the capture began counts its bytes only")
    func startedBeforeCapture() {
        let channel = EncryptedChannel.startedBeforeCapture(.accessoryToController)
        channel.receive(frames(plaintext, key: key), packet: 7, to: recorder)
        #expect(channel.frames.frames == 0)
        #expect(channel.frames.ciphertextBytes == frames(plaintext, key: key).count)
        #expect(channel.frames.firstFrameTime == PacketInfo.numbered(7).timestamp)
        #expect(!channel.mayStartPlaintext(Array("GET / HTTP/1.1\r\n".utf8)), "no frame boundary is known to start at")
        #expect(recorder.plaintext.isEmpty && recorder.problems.isEmpty)
    }

    @Test("plaintext HTTP can start only at a frame boundary that is still known")
    func mayStartPlaintext() {
        let channel = channel()
        let request = Array("GET /accessories HTTP/1.1\r\n".utf8)
        #expect(channel.mayStartPlaintext(request))
        #expect(!channel.mayStartPlaintext(frames(request, key: key)))
        channel.receive(Array(frames(request, key: key).prefix(10)), packet: 1, to: recorder)
        #expect(!channel.mayStartPlaintext(request), "inside a frame, bytes are the frame's")
    }

    @Test("without a key too, plaintext can start only where a frame ends")
    func mayStartPlaintextKeyless() {
        let channel = EncryptedChannel(.controllerToAccessory, key: nil, maximumFrameLength: 65535)
        let request = Array("GET /accessories HTTP/1.1\r\n".utf8)
        let frame = frames(request, key: key)
        #expect(channel.mayStartPlaintext(request))
        channel.receive(Array(frame.prefix(10)), packet: 1, to: recorder)
        #expect(!channel.mayStartPlaintext(request), "inside a frame, bytes are the frame's")
        channel.receive(Array(frame.dropFirst(10)), packet: 2, to: recorder)
        #expect(channel.mayStartPlaintext(request))
        channel.receive([frame[0]], packet: 3, to: recorder)
        #expect(!channel.mayStartPlaintext(request), "half a length field is the start of a frame")
    }

    @Test("what plaintext HTTP starts with, and what a frame header can never look like",
          arguments: [("HTTP/1.1 200 OK", true), ("EVENT/1.0 200 OK", true), ("GET /", true), ("PUT /characteristics", true),
                      ("POST /pair-verify", true), ("DELETE /x", true), ("GET", false), ("HEAD / HTTP/1.1", false),
                      ("\u{10}\u{00}GET /", false), ("G", false)])
    func looksLikePlaintextHTTP(start: String, plaintext: Bool) {
        #expect(Array(start.utf8).withUnsafeBytes { EncryptedChannel.looksLikePlaintextHTTP($0) } == plaintext)
    }
}

