import CSodium

/// The setup hash an accessory advertises in its `sh` TXT key: the first 4 bytes of
/// SHA-512(setupID ‖ deviceID), base64-encoded (PROTOCOL §7). A controller that scanned
/// the setup payload uses it to find the accessory.
public struct SetupHash: Sendable, Hashable, CustomStringConvertible {
    public static let byteCount = 4

    /// The 4 hash bytes.
    public let bytes: [UInt8]

    /// The hash of a setup ID and a device ID.
    ///
    /// - Parameters:
    ///   - setupID: The 4-character ID from the setup payload, `[0-9A-Z]`.
    ///   - deviceID: The accessory's `id`, exactly as advertised (HAP spells it
    ///     `XX:XX:XX:XX:XX:XX` in upper case; a differently spelled ID hashes differently,
    ///     which is the point of comparing).
    /// - Throws: `CryptoError.invalidFormat` for a setup ID that is not 4 characters of
    ///   `[0-9A-Z]`.
    public init(setupID: some StringProtocol, deviceID: some StringProtocol) throws(CryptoError) {
        self.init(setupID: try SetupID(setupID), deviceID: deviceID)
    }

    /// The hash of a setup ID and a device ID (as advertised).
    public init(setupID: SetupID, deviceID: some StringProtocol) {
        var hasher = SHA512()
        hasher.update(Array(setupID.text.utf8).span.bytes)
        hasher.update(Array(deviceID.utf8).span.bytes)
        bytes = Array(hasher.finalize().prefix(Self.byteCount))
    }

    /// The hash from an `sh` TXT value (`sodium_base642bin`, standard alphabet, padded; with
    /// no end pointer it rejects any character outside the encoding).
    ///
    /// - Throws: `CryptoError.invalidFormat` unless `text` is the base64 of exactly 4 bytes.
    public init(base64 text: some StringProtocol) throws(CryptoError) {
        let characters = Array(text.utf8)
        var decoded = [UInt8](repeating: 0, count: Self.byteCount + 1)
        var decodedCount = 0
        let result = characters.withUnsafeBufferPointer { characters in
            characters.withMemoryRebound(to: CChar.self) { characters in
                sodium_base642bin(
                    &decoded, decoded.count, characters.baseAddress, characters.count,
                    nil, &decodedCount, nil, sodium_base64_VARIANT_ORIGINAL)
            }
        }
        guard result == 0, decodedCount == Self.byteCount else {
            throw CryptoError(.invalidFormat, "a setup hash is the base64 of 4 bytes, such as \"yf4bzw==\", not \"\(text)\"")
        }
        bytes = Array(decoded.prefix(Self.byteCount))
    }

    /// The `sh` TXT value (`sodium_bin2base64`, standard alphabet, padded).
    public var base64: String {
        let encodedCapacity = sodium_base64_encoded_len(bytes.count, sodium_base64_VARIANT_ORIGINAL)
        var encoded = [CChar](repeating: 0, count: encodedCapacity)
        _ = sodium_bin2base64(&encoded, encodedCapacity, bytes, bytes.count, sodium_base64_VARIANT_ORIGINAL)
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { base64 }
}
