import HAPCrypto
import Testing
import TestSupport
@testable import IPTransport

@Suite("Following frame boundaries without a key")
struct FrameScannerTests {
    /// Frames of these plaintext lengths, sealed with some key: length, ciphertext, tag.
    private func stream(_ lengths: [Int]) -> [UInt8] {
        var encryptor = HAPFrameEncryptor(key: .stranger)
        var bytes: [UInt8] = []
        for length in lengths {
            var frame = [UInt8](repeating: 0, count: length + HAPFrame.overheadByteCount)
            let plaintext = [UInt8](repeating: 0x41, count: length)
            _ = plaintext.withUnsafeBytes { plaintext in frame.withUnsafeMutableBytes { try? encryptor.sealFrame(plaintext, into: $0) } }
            bytes += frame
        }
        return bytes
    }

    private func scan(_ pieces: [[UInt8]], into scanner: inout FrameScanner) -> [Int] {
        var lengths: [Int] = []
        for piece in pieces { piece.withUnsafeBytes { scanner.scan($0) { lengths.append($0) } } }
        return lengths
    }

    @Test("each frame's declared length is seen once, however the stream is cut")
    func anySplit() {
        let lengths = [1024, 0, 7, 1024, 300, 1]
        let bytes = stream(lengths)
        var random = SeededRandom(seed: 2)
        for _ in 0 ..< 50 {
            var scanner = FrameScanner()
            #expect(scan(randomPieces(bytes, count: 12, &random), into: &scanner) == lengths)
        }
    }

    @Test("one byte at a time, a length field split between pieces included")
    func byteByByte() {
        let lengths = [5, 1024, 0]
        var scanner = FrameScanner()
        #expect(scan(stream(lengths).map { [$0] }, into: &scanner) == lengths)
    }

    @Test("a frame is counted when its header completes, before its body has arrived")
    func countedAtItsHeader() {
        var scanner = FrameScanner()
        #expect(scan([[0x10, 0x00, 0xAA]], into: &scanner) == [16])
        #expect(scan([[UInt8](repeating: 0, count: 16 + 14)], into: &scanner) == [], "the rest of that frame but one byte")
        #expect(scan([[0xBB, 0x02]], into: &scanner) == [], "the last byte of its tag, then half the next header")
        #expect(scan([[0x00]], into: &scanner) == [2])
    }

    @Test("the scanner knows when the next byte starts a frame")
    func boundary() {
        var scanner = FrameScanner()
        #expect(scanner.isAtFrameBoundary)
        _ = scan([[0x01]], into: &scanner)
        #expect(!scanner.isAtFrameBoundary, "half a length field")
        _ = scan([[0x00] + [UInt8](repeating: 0, count: 16)], into: &scanner)
        #expect(!scanner.isAtFrameBoundary, "one byte of the frame still to come")
        _ = scan([[0x00]], into: &scanner)
        #expect(scanner.isAtFrameBoundary)
        scanner.loseSync()
        #expect(!scanner.isAtFrameBoundary)
    }

    @Test("a length above HAP's 1024 is counted as declared: judging it is the channel's job")
    func oversize() {
        var scanner = FrameScanner()
        #expect(scan([[0x00, 0x10]], into: &scanner) == [4096])
    }

    @Test("after the boundary is lost nothing more is counted")
    func lostSync() {
        var scanner = FrameScanner()
        scanner.loseSync()
        #expect(scanner.lostSync)
        #expect(scan([stream([3, 4])], into: &scanner) == [])
    }
}
