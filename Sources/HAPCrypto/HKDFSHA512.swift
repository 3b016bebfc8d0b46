import CSodium

/// HKDF with HMAC-SHA-512 (RFC 5869), the key derivation of every HAP key.
///
/// Built on `crypto_auth_hmacsha512_*` because libsodium 1.0.18 has no
/// `crypto_kdf_hkdf_sha512_*`. Derived bytes are written straight into `SecretBytes`.
public enum HKDFSHA512 {
    /// The longest output RFC 5869 §2.3 allows: 255 blocks of 64 bytes.
    public static let maximumOutputByteCount = 255 * HMACSHA512.byteCount

    /// The pseudorandom key PRK = HMAC(salt, IKM) (RFC 5869 §2.2). An empty salt acts as
    /// 64 zero bytes, as the RFC requires, because HMAC pads short keys with zeros.
    public static func extract(salt: RawSpan, inputKeyMaterial: SecretBytes) -> SecretBytes {
        salt.withUnsafeBytes { extract(salt: $0, inputKeyMaterial: inputKeyMaterial) }
    }

    /// `outputByteCount` bytes of T(1) ‖ T(2) ‖ …, T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i)
    /// (RFC 5869 §2.3).
    ///
    /// - Throws: `CryptoError.invalidSize` when `outputByteCount` is negative or above
    ///   `maximumOutputByteCount`.
    public static func expand(
        pseudorandomKey: SecretBytes, info: RawSpan, outputByteCount: Int
    ) throws(CryptoError) -> SecretBytes {
        guard (0...maximumOutputByteCount).contains(outputByteCount) else {
            throw CryptoError(.invalidSize, "HKDF-SHA-512 output must be 0 to \(maximumOutputByteCount) bytes, not \(outputByteCount)")
        }
        return info.withUnsafeBytes { info in
            SecretBytes(byteCount: outputByteCount) { output in
                expand(pseudorandomKey: pseudorandomKey, info: info, into: output)
            }
        }
    }

    /// Extract then expand: the derivation HAP uses everywhere, with a 32-byte output.
    public static func deriveKey(
        inputKeyMaterial: SecretBytes, salt: RawSpan, info: RawSpan, outputByteCount: Int = 32
    ) throws(CryptoError) -> SecretBytes {
        try expand(pseudorandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial), info: info, outputByteCount: outputByteCount)
    }

    /// HKDF-SHA-512 with ASCII salt and info and a 32-byte output, as every HAP derivation
    /// spells it.
    static func deriveKey(inputKeyMaterial: SecretBytes, salt: StaticString, info: StaticString) -> SecretBytes {
        let pseudorandomKey = salt.withUTF8Buffer { extract(salt: UnsafeRawBufferPointer($0), inputKeyMaterial: inputKeyMaterial) }
        return info.withUTF8Buffer { info in
            SecretBytes(byteCount: 32) { expand(pseudorandomKey: pseudorandomKey, info: UnsafeRawBufferPointer(info), into: $0) }
        }
    }

    private static func extract(salt: UnsafeRawBufferPointer, inputKeyMaterial: SecretBytes) -> SecretBytes {
        var hmac = HMACSHA512(key: salt)
        inputKeyMaterial.withUnsafeBytes { hmac.update($0) }
        return SecretBytes(byteCount: HMACSHA512.byteCount) { hmac.finalize(into: $0) }
    }

    /// Fills `output` (at most 255 × 64 bytes) with the expansion. Whole blocks are written in
    /// place, and T(i-1) is read back from where it was written; a final partial block goes
    /// through a stack buffer that is wiped afterwards.
    private static func expand(pseudorandomKey: SecretBytes, info: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        let blockSize = HMACSHA512.byteCount
        withUnsafeTemporaryAllocation(byteCount: blockSize, alignment: 16) { lastBlock in
            var written = 0
            var blockIndex: UInt8 = 1
            while written < output.count {
                var hmac = HMACSHA512(key: pseudorandomKey)
                if written > 0 {
                    hmac.update(UnsafeRawBufferPointer(rebasing: output[(written - blockSize)..<written]))
                }
                hmac.update(info)
                withUnsafeBytes(of: blockIndex) { hmac.update($0) }
                let remaining = output.count - written
                if remaining >= blockSize {
                    hmac.finalize(into: UnsafeMutableRawBufferPointer(rebasing: output[written..<(written + blockSize)]))
                    written += blockSize
                } else {
                    hmac.finalize(into: lastBlock)
                    UnsafeMutableRawBufferPointer(rebasing: output[written...])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: lastBlock[..<remaining]))
                    written = output.count
                }
                blockIndex &+= 1
            }
            sodium_memzero(lastBlock.baseAddress, blockSize)
        }
    }
}
