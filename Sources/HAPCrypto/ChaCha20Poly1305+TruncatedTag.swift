import CSodium

extension ChaCha20Poly1305 {
    /// The plaintext of `ciphertext` sealed under RFC 8439's construction when only the first
    /// `truncatedTag.count` bytes of its 16-byte tag were sent; nil when they do not match.
    ///
    /// HAP-BLE encrypted notification advertisements carry 4 tag bytes (HomeKitADK
    /// HAPBLEAccessoryServer+Advertising.c seals with the full AEAD and copies `tagBytes[0..<4]`).
    /// libsodium's decrypt checks a whole tag, so the tag is computed again instead, as
    /// aiohomekit's `ChaCha20Poly1305PartialTag.open` (crypto/chacha20poly1305.py) does: the
    /// keystream from block 1 (`crypto_stream_chacha20_ietf_xor_ic`) gives the plaintext, sealing
    /// it again (`crypto_aead_chacha20poly1305_ietf_encrypt_detached`) gives the tag the sender
    /// computed, and its prefix is compared in constant time (`sodium_memcmp`). An empty
    /// ciphertext is nil: a notification always carries 12 bytes.
    public static func open(
        _ ciphertext: [UInt8], truncatedTag: [UInt8], key: Key, nonce: Nonce, authenticating additionalData: [UInt8]
    ) -> [UInt8]? {
        guard !ciphertext.isEmpty, !truncatedTag.isEmpty, truncatedTag.count <= tagByteCount else { return nil }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        var resealed = [UInt8](repeating: 0, count: ciphertext.count)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        key.secret.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                ciphertext.withUnsafeBytes { ciphertext in
                    plaintext.withUnsafeMutableBytes { plaintext in
                        // RFC 8439 §2.8: block 0 makes the Poly1305 key, the message starts at block 1.
                        _ = crypto_stream_chacha20_ietf_xor_ic(
                            plaintext.sodiumOutput!, ciphertext.sodiumInput!, UInt64(ciphertext.count), nonce.sodiumInput!, 1,
                            key.sodiumInput!)
                    }
                }
                plaintext.withUnsafeBytes { plaintext in
                    additionalData.withUnsafeBytes { additionalData in
                        resealed.withUnsafeMutableBytes { resealed in
                            tag.withUnsafeMutableBytes { tag in
                                _ = crypto_aead_chacha20poly1305_ietf_encrypt_detached(
                                    resealed.sodiumOutput!, tag.sodiumOutput!, nil,
                                    plaintext.sodiumInput, UInt64(plaintext.count),
                                    additionalData.sodiumInput, UInt64(additionalData.count),
                                    nil, nonce.sodiumInput!, key.sodiumInput!)
                            }
                        }
                    }
                }
            }
        }
        let matches = tag.withUnsafeBytes { tag in
            truncatedTag.withUnsafeBytes { sent in sodium_memcmp(tag.baseAddress, sent.baseAddress, sent.count) == 0 }
        }
        return matches ? plaintext : nil
    }
}
