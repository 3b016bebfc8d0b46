import WireParsing

extension ChaCha20Poly1305 {
    /// A 12-byte IETF nonce.
    ///
    /// HAP's nonces are 8 bytes, a message label or a frame counter, which become the IETF
    /// nonce by prepending 4 zero bytes (PROTOCOL §8 #1: libraries that padded short nonces
    /// silently hid this, and broke when they stopped). The nonce lives in three 32-bit
    /// words laid out in byte order, so passing it to libsodium never allocates.
    public struct Nonce: Sendable, Hashable, CustomStringConvertible {
        private var words: (UInt32, UInt32, UInt32)

        /// A nonce from its 12 bytes.
        ///
        /// - Throws: `CryptoError.invalidSize` for any other length.
        public init(_ bytes: RawSpan) throws(CryptoError) {
            try CryptoError.requireSize(bytes.byteCount, ChaCha20Poly1305.nonceByteCount, of: "a ChaCha20-Poly1305 IETF nonce")
            words = (0, 0, 0)
            bytes.withUnsafeBytes { source in
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: source) }
            }
        }

        /// The nonce of HAP session frame number `counter`: 4 zero bytes ‖ LE64(counter).
        // HAP: session security, frame nonce (PROTOCOL §4.2)
        @inline(__always)
        public init(counter: UInt64) {
            words = (0, UInt32(truncatingIfNeeded: counter).littleEndian, UInt32(truncatingIfNeeded: counter >> 32).littleEndian)
        }

        /// The nonce of a pairing message: 4 zero bytes ‖ an 8-byte ASCII label such as
        /// `PV-Msg02`.
        init(label: StaticString) {
            precondition(label.utf8CodeUnitCount == 8, "HAP nonce labels are 8 ASCII bytes")
            words = (0, 0, 0)
            label.withUTF8Buffer { label in
                withUnsafeMutableBytes(of: &words) { words in
                    UnsafeMutableRawBufferPointer(rebasing: words[4...]).copyMemory(from: UnsafeRawBufferPointer(label))
                }
            }
        }

        /// The 12 nonce bytes.
        public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

        @inline(__always)
        func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            Swift.withUnsafeBytes(of: words, body)
        }

        public static func == (lhs: Nonce, rhs: Nonce) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
        }

        public var description: String { Hex.encode(bytes) }
    }
}
