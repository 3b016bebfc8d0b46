/// The layout of an encrypted HAP session frame (PROTOCOL §4.2):
///
///     length: u16 LE ‖ ciphertext (length bytes) ‖ Poly1305 tag (16 bytes)
///
/// sealed with ChaCha20-Poly1305 IETF, the two length bytes as additional data, and the
/// nonce 4 zero bytes ‖ LE64(counter), one counter per direction starting at 0.
public enum HAPFrame {
    /// The length field.
    public static let lengthFieldByteCount = 2
    /// The Poly1305 tag after the ciphertext.
    public static let tagByteCount = ChaCha20Poly1305.tagByteCount
    /// Bytes a frame adds to its plaintext: 18.
    public static let overheadByteCount = lengthFieldByteCount + tagByteCount
    /// The largest plaintext HAP allows in one frame; ADK closes the connection on a larger
    /// one, though iOS has been seen to accept more (PROTOCOL §8 #11).
    public static let maximumLength = 1024
    /// The largest length the u16 field can declare.
    public static let largestDeclarableLength = Int(UInt16.max)
}
