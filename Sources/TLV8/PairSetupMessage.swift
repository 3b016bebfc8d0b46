/// A `/pair-setup` body: one step of HAP Pair Setup (SRP-6a, then the exchange of long-term keys).
///
/// SRP values are kept as sent: accessories may strip leading zero bytes from B, and a verifier
/// must hash exactly what was on the wire.
public enum PairSetupMessage: Sendable, Hashable {
    case m1(M1)
    case m2(M2)
    case m3(M3)
    case m4(M4)
    case m5(M5)
    case m6(M6)
    /// An accessory's refusal at M2, M4 or M6.
    case error(PairingErrorResponse)

    /// HAP: Pair Setup M1 — the controller asks to start.
    public struct M1: Sendable, Hashable {
        /// PairSetup, or PairSetupWithAuth for MFi-authenticated setup.
        public var method: PairingMethod?
        /// Transient and Split setup (HomeKitADK ignores them with PairSetupWithAuth).
        public var flags: PairingFlags?

        public init(method: PairingMethod?, flags: PairingFlags? = nil) {
            self.method = method
            self.flags = flags
        }

        static let rules: [PairingItemRule] = [
            .required(.method, .integer),
            .optional(.flags, .flags),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let items = decoder.match(rules: Self.rules)
            self.init(method: decoder.method(items, allowed: [.pairSetup, .pairSetupWithAuth]), flags: decoder.flags(items))
        }
    }

    /// HAP: Pair Setup M2 — the accessory's SRP public key B and salt.
    public struct M2: Sendable, Hashable {
        /// B, up to 384 bytes.
        public var publicKey: [UInt8]?
        /// 16 bytes.
        public var salt: [UInt8]?
        /// HomeKitADK echoes Split, or Transient with Split.
        public var flags: PairingFlags?

        public init(publicKey: [UInt8]?, salt: [UInt8]?, flags: PairingFlags? = nil) {
            self.publicKey = publicKey
            self.salt = salt
            self.flags = flags
        }

        static let rules: [PairingItemRule] = [
            .required(.publicKey, .srpPublicKey),
            .required(.salt, .salt),
            .optional(.flags, .flags),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let items = decoder.match(rules: Self.rules)
            self.init(publicKey: items.bytes(.publicKey), salt: items.bytes(.salt), flags: decoder.flags(items))
        }
    }

    /// HAP: Pair Setup M3 — the controller's SRP public key A and proof M1.
    public struct M3: Sendable, Hashable {
        /// A, up to 384 bytes.
        public var publicKey: [UInt8]?
        /// The 64-byte SRP proof M1.
        public var proof: [UInt8]?

        public init(publicKey: [UInt8]?, proof: [UInt8]?) {
            self.publicKey = publicKey
            self.proof = proof
        }

        static let rules: [PairingItemRule] = [
            .required(.publicKey, .srpPublicKey),
            .required(.proof, .srpProof),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let items = decoder.match(rules: Self.rules)
            self.init(publicKey: items.bytes(.publicKey), proof: items.bytes(.proof))
        }
    }

    /// HAP: Pair Setup M4 — the accessory's SRP proof M2.
    public struct M4: Sendable, Hashable {
        /// The 64-byte SRP proof M2.
        public var proof: [UInt8]?
        /// With PairSetupWithAuth: the MFi signature and certificate, sealed with "PS-Msg04"
        /// (decode the plaintext with `PairingSubTLV.decode(_:for: .pairSetupM4)`).
        public var encryptedData: [UInt8]?

        public init(proof: [UInt8]?, encryptedData: [UInt8]? = nil) {
            self.proof = proof
            self.encryptedData = encryptedData
        }

        static let rules: [PairingItemRule] = [
            .required(.proof, .srpProof),
            .optional(.encryptedData, .encryptedData),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let items = decoder.match(rules: Self.rules)
            self.init(proof: items.bytes(.proof), encryptedData: items.bytes(.encryptedData))
        }
    }

    /// HAP: Pair Setup M5 — the controller's identity, sealed with "PS-Msg05"
    /// (decode the plaintext with `PairingSubTLV.decode(_:for: .pairSetupM5)`).
    public typealias M5 = PairingEncryptedDataMessage

    /// HAP: Pair Setup M6 — the accessory's identity, sealed with "PS-Msg06"
    /// (decode the plaintext with `PairingSubTLV.decode(_:for: .pairSetupM6)`).
    public typealias M6 = PairingEncryptedDataMessage

    /// The step this message is.
    public var state: PairingState {
        switch self {
        case .m1: .m1
        case .m2: .m2
        case .m3: .m3
        case .m4: .m4
        case .m5: .m5
        case .m6: .m6
        case .error(let response): response.state
        }
    }

    /// Decodes a `/pair-setup` body leniently.
    ///
    /// - Parameter expectedState: the step the caller expects from context (the request this
    ///   answers, or the previous step), used when the body has no State item.
    public static func decode(_ body: TLV8Body, expectedState: PairingState? = nil) -> DecodedPairingBody<PairSetupMessage> {
        PairingBodyDecoder.decode(body, expectedState: expectedState, steps: 1 ... 6, error: PairSetupMessage.error) {
            decoder, state in
            switch state {
            case .m1: .m1(M1(&decoder))
            case .m2: .m2(M2(&decoder))
            case .m3: .m3(M3(&decoder))
            case .m4: .m4(M4(&decoder))
            case .m5: .m5(M5(&decoder))
            case .m6: .m6(M6(&decoder))
            }
        }
    }

    /// The body as HomeKitADK lays it out (HAP-python and HAP-NodeJS put M2's Salt before
    /// PublicKey; order carries no meaning): State first, absent values left out.
    public func encoded() -> [UInt8] {
        var writer = TLV8Writer()
        writer.append(state)
        switch self {
        case .m1(let message):
            writer.append(message.method)
            writer.append(message.flags)
        case .m2(let message):
            writer.append(.publicKey, ifPresent: message.publicKey)
            writer.append(.salt, ifPresent: message.salt)
            writer.append(message.flags)
        case .m3(let message):
            writer.append(.publicKey, ifPresent: message.publicKey)
            writer.append(.proof, ifPresent: message.proof)
        case .m4(let message):
            writer.append(.proof, ifPresent: message.proof)
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .m5(let message):
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .m6(let message):
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .error(let response):
            response.encode(into: &writer)
        }
        return writer.bytes
    }
}
