/// One authenticated frame, as handed to the callback of `HAPFrameDecryptor.decrypt`.
///
/// `plaintext` points into the decryptor's reused buffer and is valid only during the
/// callback: copy what must outlive it.
public struct HAPDecryptedFrame {
    /// The counter the frame authenticated with: 0 for the first frame of a direction.
    public let counter: UInt64
    /// The length field, which is also the plaintext length.
    public let declaredLength: Int
    /// The stream offset of the frame's first byte (its length field).
    public let streamOffset: Int
    /// The decrypted bytes, valid only during the callback.
    public let plaintext: UnsafeRawBufferPointer

    /// The frame's size on the wire: length field, ciphertext and tag.
    public var byteCount: Int { declaredLength + HAPFrame.overheadByteCount }

    /// Rules of HAP the frame breaks although it authenticated.
    public var anomalies: Anomalies {
        var anomalies: Anomalies = []
        if declaredLength > HAPFrame.maximumLength { anomalies.insert(.exceedsMaximumLength) }
        if declaredLength == 0 { anomalies.insert(.empty) }
        return anomalies
    }

    /// Frame-level findings for the audit.
    public struct Anomalies: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// More than 1024 plaintext bytes (PROTOCOL §4.2, §8 #11).
        public static let exceedsMaximumLength = Anomalies(rawValue: 1 << 0)
        /// No plaintext at all: senders never emit empty frames (PROTOCOL §4.2).
        public static let empty = Anomalies(rawValue: 1 << 1)
    }
}
