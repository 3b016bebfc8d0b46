/// A pairing step that carries EncryptedData alone besides its State: Pair Setup M5 and M6,
/// Pair Verify M3. Each seals the sender's identity under its own nonce ("PS-Msg05",
/// "PS-Msg06", "PV-Msg03"); `PairingSubTLV.decode(_:for:)` reads the plaintext.
public struct PairingEncryptedDataMessage: Sendable, Hashable {
    public var encryptedData: [UInt8]?

    public init(encryptedData: [UInt8]?) {
        self.encryptedData = encryptedData
    }

    static let rules: [PairingItemRule] = [.required(.encryptedData, .encryptedData)]

    init(_ decoder: inout PairingBodyDecoder) {
        let items = decoder.match(rules: Self.rules)
        self.init(encryptedData: items.bytes(.encryptedData))
    }
}
