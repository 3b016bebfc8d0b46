import FuzzSupport
import HAPCrypto

/// Fuzz target: the HAP frame decryptor over one direction of a session, with a fixed key.
///
/// Random bytes almost never authenticate, so the input does not hold the stream itself: it
/// describes one, which the harness builds with `HAPFrameEncryptor` under the same key and then
/// feeds to the decryptor in pieces, with capture gaps.
///
/// Input layout: a settings byte (bit 0: a 64-byte maximum frame length instead of 65535;
/// bits 1–3: the counter search window), a byte that seeds the piece sizes (1–256 bytes), then
/// operations until the input ends, each chosen by the low two bits of its first byte:
/// - 0 and 1: a frame whose plaintext is the next `n` input bytes, `n` from the following byte
///   (times 5 with bit 2, to pass HAP's 1024-byte limit); bit 3 seals it with a skipped counter,
///   bit 4 reuses the previous counter, bit 5 flips a bit of its ciphertext;
/// - 2: raw bytes, `n` of them from the input after a length byte: a peer writing plaintext or
///   garbage where frames are due;
/// - 3: a capture gap over the next `n` stream bytes, `n` from the following byte.
///
/// Besides not crashing, the decryptor must keep its promises: every frame it hands over is one
/// the harness sealed, at the stream offset and with the counter it was sealed at, with the same
/// plaintext; after the first error nothing more is handed over; a frame sealed with a nearby
/// counter is diagnosed with that counter; it never holds more than one frame.
enum FrameDecryptorHarness: FuzzHarness {
    static let name = "FuzzFrameDecryptor"

    static let key = try! ChaCha20Poly1305.Key(SecretBytes([UInt8](repeating: 0x5A, count: ChaCha20Poly1305.keyByteCount)))

    struct SealedFrame {
        let counter: UInt64
        let plaintext: [UInt8]
        let isIntact: Bool
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let settings = input.byte()
        let configuration = HAPFrameDecryptor.Configuration(
            maximumFrameLength: settings & 1 == 1 ? 64 : HAPFrame.largestDeclarableLength,
            counterSearchWindow: Int(settings >> 1 & 7))
        var pieceSeed = UInt32(input.byte()) | 1

        // Build the stream.
        var stream: [UInt8] = []
        var gaps: [Int: Int] = [:]
        var sealed: [Int: SealedFrame] = [:]
        var encryptor = HAPFrameEncryptor(key: key)
        while !input.isAtEnd {
            let operation = input.byte()
            switch operation & 3 {
            case 0, 1:
                let length = Int(input.byte()) * (operation & 4 != 0 ? 5 : 1)
                var plaintext = Array(input.bytes(upTo: length))
                plaintext += repeatElement(0x20, count: length - plaintext.count)
                if operation & 8 != 0 { encryptor.nextCounter &+= 1 }
                if operation & 16 != 0, encryptor.nextCounter > 0 { encryptor.nextCounter -= 1 }
                let counter = encryptor.nextCounter
                var frame = [UInt8](repeating: 0, count: length + HAPFrame.overheadByteCount)
                plaintext.withUnsafeBytes { plaintext in
                    frame.withUnsafeMutableBytes { output in
                        _ = try! encryptor.sealFrame(plaintext, into: output)
                    }
                }
                let isIntact = operation & 32 == 0
                if !isIntact { frame[frame.count - 1] ^= 0x01 }
                sealed[stream.count] = SealedFrame(counter: counter, plaintext: plaintext, isIntact: isIntact)
                stream += frame
            case 2:
                stream += input.bytes(upTo: Int(input.byte()))
            default:
                let count = Int(input.byte())
                if count > 0 { gaps[stream.count] = count }
            }
        }

        // Feed it.
        var decryptor = HAPFrameDecryptor(key: key, configuration: configuration)
        var failed = false
        var position = 0
        var nextGap = gaps.keys.sorted()[...]
        func check(_ frame: HAPDecryptedFrame) {
            fuzzInvariant(!failed, "a frame was handed over after the direction failed")
            guard let expected = sealed[frame.streamOffset], expected.isIntact else {
                fuzzInvariant(false, "a frame authenticated at offset \(frame.streamOffset), where none was sealed intact")
                return
            }
            fuzzInvariant(frame.counter == expected.counter, "frame at \(frame.streamOffset) opened with counter \(frame.counter), sealed with \(expected.counter)")
            fuzzInvariant(Array(frame.plaintext) == expected.plaintext, "frame at \(frame.streamOffset) decrypted to other plaintext")
        }
        func record(_ error: HAPFrameDecryptionError) {
            failed = true
            _ = error.description
            guard case .authenticationFailed = error.kind, let frame = sealed[error.streamOffset], frame.isIntact else { return }
            let distance = frame.counter > error.counter ? frame.counter - error.counter : error.counter - frame.counter
            if distance > 0, distance <= UInt64(configuration.counterSearchWindow) {
                fuzzInvariant(error.authenticatingCounter == frame.counter,
                              "frame sealed with counter \(frame.counter) diagnosed as \(String(describing: error.authenticatingCounter))")
            }
        }
        while position < stream.count {
            if let gapStart = nextGap.first, gapStart <= position {
                nextGap.removeFirst()
                let count = min(gaps[gapStart]!, stream.count - position)
                position += count
                do throws(HAPFrameDecryptionError) {
                    try decryptor.skipGap(byteCount: count)
                } catch {
                    record(error)
                }
                continue
            }
            pieceSeed = pieceSeed &* 1_103_515_245 &+ 12_345
            var end = min(position + Int(pieceSeed >> 24) + 1, stream.count)
            if let gapStart = nextGap.first { end = min(end, gapStart) }
            stream.withUnsafeBytes { buffer in
                do throws(HAPFrameDecryptionError) {
                    try decryptor.decrypt(UnsafeRawBufferPointer(rebasing: buffer[position ..< end]), forEachFrame: check)
                } catch {
                    record(error)
                }
            }
            position = end
            fuzzInvariant(decryptor.bufferedByteCount <= configuration.maximumFrameLength + HAPFrame.overheadByteCount,
                          "\(decryptor.bufferedByteCount) bytes held of one frame")
        }
        fuzzInvariant(failed == (decryptor.failure != nil), "the decryptor's failure does not match what it threw")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecryptor(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FrameDecryptorHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension FrameDecryptorHarness {}
#endif
