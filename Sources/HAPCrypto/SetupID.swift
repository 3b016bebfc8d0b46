/// The 4-character setup ID of an accessory's setup payload (`X-HM://…` QR codes and NFC tags):
/// `[0-9A-Z]`, hashed with the device ID into the advertised setup hash (PROTOCOL §7).
public struct SetupID: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    /// - Throws: `CryptoError.invalidFormat` unless `text` is 4 characters of `0-9` and `A-Z`.
    public init(_ text: some StringProtocol) throws(CryptoError) {
        let isSetupIDCharacter = { (byte: UInt8) in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        guard text.utf8.count == 4, text.utf8.allSatisfy(isSetupIDCharacter) else {
            throw CryptoError(.invalidFormat, "a setup ID is 4 characters of 0-9 and A-Z, not \"\(text)\"")
        }
        self.text = String(text)
    }

    public var description: String { text }
}
