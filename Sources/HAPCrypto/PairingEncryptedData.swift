/// The `EncryptedData` item (TLV type 05) of a pairing message: a sub-TLV sealed with
/// ChaCha20-Poly1305 under the message's nonce label, no additional data, tag appended.
///
/// This type only seals and opens bytes; decoding the sub-TLV is the session layer's job.
public enum PairingEncryptedData {
    /// The sub-TLV bytes inside `encryptedData`.
    ///
    /// - Parameters:
    ///   - encryptedData: The value of the `EncryptedData` item, ciphertext ‖ 16-byte tag.
    ///   - message: Which message it came from; this picks the nonce.
    ///   - key: The Pair Setup session key (`PairSetupKeys.encryptionKey`) or the Pair Verify
    ///     key (`PairVerifyKeys.encryptionKey`).
    /// - Throws: `CryptoError.invalidSize` when shorter than a tag;
    ///   `CryptoError.authenticationFailed` when the key, the message or the bytes are wrong.
    public static func open(_ encryptedData: RawSpan, of message: PairingMessage, key: ChaCha20Poly1305.Key) throws(CryptoError) -> [UInt8] {
        do {
            return try ChaCha20Poly1305.open(encryptedData, key: key, nonce: message.nonce)
        } catch {
            throw CryptoError(error.code, "\(message) EncryptedData: \(error.reason)")
        }
    }

    /// The `EncryptedData` value that carries `subTLV` in `message`.
    public static func seal(_ subTLV: RawSpan, for message: PairingMessage, key: ChaCha20Poly1305.Key) -> [UInt8] {
        ChaCha20Poly1305.seal(subTLV, key: key, nonce: message.nonce)
    }
}
