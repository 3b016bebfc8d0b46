/// Seals one direction of an encrypted HAP session into frames (PROTOCOL §4.2), for tests
/// and for generating captures.
///
/// `nextCounter` is settable so that a generator can produce the faults the decryptor
/// diagnoses: a skipped counter, a reused one.
public struct HAPFrameEncryptor: Sendable {
    private let key: ChaCha20Poly1305.Key
    /// The counter the next frame is sealed with.
    public var nextCounter: UInt64

    /// - Parameters:
    ///   - key: The direction's key from `SessionKeys`.
    ///   - firstCounter: The counter of the first frame: 0 at the start of a session.
    public init(key: ChaCha20Poly1305.Key, firstCounter: UInt64 = 0) {
        self.key = key
        self.nextCounter = firstCounter
    }

    /// Seals one frame carrying all of `plaintext` into `output`, which must not overlap it,
    /// without allocating.
    ///
    /// - Returns: The number of bytes written, `plaintext.count + 18`.
    /// - Throws: `CryptoError.invalidSize` for a plaintext over 65535 bytes (the length
    ///   field's limit); `CryptoError.bufferTooSmall` when `output` is too short.
    public mutating func sealFrame(_ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        guard plaintext.count <= HAPFrame.largestDeclarableLength else {
            throw CryptoError(.invalidSize, "a HAP frame holds at most \(HAPFrame.largestDeclarableLength) bytes, not \(plaintext.count)")
        }
        let frameByteCount = plaintext.count + HAPFrame.overheadByteCount
        guard output.count >= frameByteCount else {
            throw CryptoError(.bufferTooSmall, "a HAP frame of \(plaintext.count) bytes needs \(frameByteCount) output bytes, not \(output.count)")
        }
        writeFrame(plaintext, into: UnsafeMutableRawBufferPointer(rebasing: output[..<frameByteCount]))
        return frameByteCount
    }

    /// The stream bytes of `plaintext` cut into frames of at most `maximumFrameLength`
    /// bytes, the way HAP senders cut every write regardless of HTTP structure. Empty
    /// plaintext gives no frames.
    ///
    /// - Throws: `CryptoError.invalidSize` unless `maximumFrameLength` is 1...65535.
    public mutating func seal(_ plaintext: RawSpan, maximumFrameLength: Int = HAPFrame.maximumLength) throws(CryptoError) -> [UInt8] {
        guard (1...HAPFrame.largestDeclarableLength).contains(maximumFrameLength) else {
            throw CryptoError(.invalidSize, "a HAP frame length must be 1...\(HAPFrame.largestDeclarableLength), not \(maximumFrameLength)")
        }
        let frameCount = (plaintext.byteCount + maximumFrameLength - 1) / maximumFrameLength
        let outputCount = plaintext.byteCount + frameCount * HAPFrame.overheadByteCount
        return plaintext.withUnsafeBytes { plaintext in
            [UInt8](unsafeUninitializedCapacity: outputCount) { output, initializedCount in
                let output = UnsafeMutableRawBufferPointer(output)
                var read = 0
                var written = 0
                while read < plaintext.count {
                    let chunk = UnsafeRawBufferPointer(rebasing: plaintext[read..<min(read + maximumFrameLength, plaintext.count)])
                    let frameByteCount = chunk.count + HAPFrame.overheadByteCount
                    writeFrame(chunk, into: UnsafeMutableRawBufferPointer(rebasing: output[written..<(written + frameByteCount)]))
                    read += chunk.count
                    written += frameByteCount
                }
                initializedCount = written
            }
        }
    }

    /// Writes length ‖ ciphertext ‖ tag into `frame`, which is exactly plaintext + 18 bytes.
    private mutating func writeFrame(_ plaintext: UnsafeRawBufferPointer, into frame: UnsafeMutableRawBufferPointer) {
        frame.storeBytes(of: UInt16(plaintext.count).littleEndian, toByteOffset: 0, as: UInt16.self)
        ChaCha20Poly1305.unsafeSeal(
            plaintext, key: key, nonce: .init(counter: nextCounter),
            additionalData: UnsafeRawBufferPointer(rebasing: frame[..<HAPFrame.lengthFieldByteCount]),
            into: UnsafeMutableRawBufferPointer(rebasing: frame[HAPFrame.lengthFieldByteCount...]))
        nextCounter &+= 1
    }
}
