/// The plaintext of a pairing message's EncryptedData: the inner TLVs that identify and
/// authenticate a party.
///
/// This module keeps EncryptedData opaque; the session layer decrypts it and hands the
/// plaintext back here, decoded with `TLV8Body(parsingLeniently:)`.
public struct PairingSubTLV: Sendable, Hashable {
    /// The message whose EncryptedData held the sub-TLV; it decides which items belong.
    public enum Context: Sendable, Hashable, CaseIterable {
        /// HAP: Pair Setup M4 with PairSetupWithAuth — Signature and Certificate from the MFi coprocessor.
        case pairSetupM4
        /// HAP: Pair Setup M5 — the controller's Identifier, long-term PublicKey and Signature.
        case pairSetupM5
        /// HAP: Pair Setup M6 — the accessory's Identifier, long-term PublicKey and Signature.
        case pairSetupM6
        /// HAP: Pair Verify M2 — the accessory's Identifier and Signature.
        case pairVerifyM2
        /// HAP: Pair Verify M3 — the controller's Identifier and Signature.
        case pairVerifyM3

        var rules: [PairingItemRule] {
            switch self {
            case .pairSetupM4:
                [.required(.signature, .mfiData), .required(.certificate, .mfiData)]
            case .pairSetupM5, .pairSetupM6:
                [
                    .required(.identifier, .identifier),
                    .required(.publicKey, .ed25519PublicKey),
                    .required(.signature, .ed25519Signature),
                ]
            case .pairVerifyM2, .pairVerifyM3:
                [.required(.identifier, .identifier), .required(.signature, .ed25519Signature)]
            }
        }
    }

    /// The pairing ID of the party that signed.
    public var identifier: PairingIdentifier?
    /// Pair Setup M5 and M6: the party's 32-byte Ed25519 long-term public key (LTPK).
    public var publicKey: [UInt8]?
    /// An Ed25519 signature (64 bytes), or the MFi coprocessor's signature in Pair Setup M4.
    public var signature: [UInt8]?
    /// Pair Setup M4: the MFi coprocessor's X.509 certificate.
    public var certificate: [UInt8]?

    public init(
        identifier: PairingIdentifier? = nil, publicKey: [UInt8]? = nil, signature: [UInt8]? = nil,
        certificate: [UInt8]? = nil
    ) {
        self.identifier = identifier
        self.publicKey = publicKey
        self.signature = signature
        self.certificate = certificate
    }

    /// Decodes decrypted EncryptedData leniently. The result has no state: sub-TLVs carry none.
    public static func decode(_ body: TLV8Body, for context: Context) -> DecodedPairingBody<PairingSubTLV> {
        var decoder = PairingBodyDecoder(body)
        let items = decoder.match(rules: context.rules)
        let subTLV = PairingSubTLV(
            identifier: decoder.identifier(items), publicKey: items.bytes(.publicKey),
            signature: items.bytes(.signature), certificate: items.bytes(.certificate))
        return decoder.finish(subTLV, state: nil)
    }

    /// The plaintext to seal into EncryptedData, in HomeKitADK's order; absent values left out.
    public func encoded() -> [UInt8] {
        var writer = TLV8Writer()
        writer.append(identifier)
        writer.append(.publicKey, ifPresent: publicKey)
        writer.append(.signature, ifPresent: signature)
        writer.append(.certificate, ifPresent: certificate)
        return writer.bytes
    }
}
