/// A `/pair-verify` body: one step of HAP Pair Verify (an ephemeral X25519 exchange signed
/// with the long-term keys from Pair Setup).
public enum PairVerifyMessage: Sendable, Hashable {
    case m1(M1)
    case m2(M2)
    case m3(M3)
    case m4
    /// An accessory's refusal at M2 or M4.
    case error(PairingErrorResponse)

    /// HAP: Pair Verify M1 — the controller's ephemeral public key.
    public struct M1: Sendable, Hashable {
        /// The controller's 32-byte X25519 key.
        public var publicKey: [UInt8]?
        /// Absent for Pair Verify; PairResume asks to resume a session (BLE only: HomeKitADK
        /// rejects it over IP, and rejects any other Method here).
        public var method: PairingMethod?
        /// Pair Resume: the 8-byte session ID.
        public var sessionID: [UInt8]?
        /// Pair Resume: a 16-byte authentication tag sealed with "PR-Msg01".
        public var encryptedData: [UInt8]?

        public init(
            publicKey: [UInt8]?, method: PairingMethod? = nil, sessionID: [UInt8]? = nil, encryptedData: [UInt8]? = nil
        ) {
            self.publicKey = publicKey
            self.method = method
            self.sessionID = sessionID
            self.encryptedData = encryptedData
        }

        static let pairVerifyRules: [PairingItemRule] = [
            .required(.publicKey, .x25519PublicKey),
            .optional(.method, .integer),
        ]

        static let pairResumeRules: [PairingItemRule] = pairVerifyRules + [
            .required(.sessionID, .sessionID),
            .required(.encryptedData, .pairResumeEncryptedData),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let resumes = decoder.body.first(.method)?.value == [PairingMethod.pairResume.rawValue]
            let items = decoder.match(rules: resumes ? Self.pairResumeRules : Self.pairVerifyRules)
            self.init(
                publicKey: items.bytes(.publicKey),
                method: decoder.method(items, allowed: [.pairResume]),
                sessionID: items.bytes(.sessionID),
                encryptedData: items.bytes(.encryptedData))
        }
    }

    /// HAP: Pair Verify M2 — the accessory's ephemeral public key and its signed identity.
    public struct M2: Sendable, Hashable {
        /// The accessory's 32-byte X25519 key.
        public var publicKey: [UInt8]?
        /// The accessory's Identifier and Signature, sealed with "PV-Msg02" (decode the
        /// plaintext with `PairingSubTLV.decode(_:for: .pairVerifyM2)`).
        public var encryptedData: [UInt8]?

        public init(publicKey: [UInt8]?, encryptedData: [UInt8]?) {
            self.publicKey = publicKey
            self.encryptedData = encryptedData
        }

        static let rules: [PairingItemRule] = [
            .required(.publicKey, .x25519PublicKey),
            .required(.encryptedData, .encryptedData),
        ]

        init(_ decoder: inout PairingBodyDecoder) {
            let items = decoder.match(rules: Self.rules)
            self.init(publicKey: items.bytes(.publicKey), encryptedData: items.bytes(.encryptedData))
        }
    }

    /// HAP: Pair Verify M3 — the controller's Identifier and Signature, sealed with "PV-Msg03"
    /// (decode the plaintext with `PairingSubTLV.decode(_:for: .pairVerifyM3)`).
    public typealias M3 = PairingEncryptedDataMessage

    /// The step this message is.
    public var state: PairingState {
        switch self {
        case .m1: .m1
        case .m2: .m2
        case .m3: .m3
        case .m4: .m4
        case .error(let response): response.state
        }
    }

    /// Decodes a `/pair-verify` body leniently.
    ///
    /// - Parameter expectedState: the step the caller expects from context (the request this
    ///   answers, or the previous step), used when the body has no State item.
    public static func decode(_ body: TLV8Body, expectedState: PairingState? = nil) -> DecodedPairingBody<PairVerifyMessage> {
        PairingBodyDecoder.decode(body, expectedState: expectedState, steps: 1 ... 4, error: PairVerifyMessage.error) {
            decoder, state in
            switch state {
            case .m1: return .m1(M1(&decoder))
            case .m2: return .m2(M2(&decoder))
            case .m3: return .m3(M3(&decoder))
            default:
                // M4, as `resolveState` admits nothing later. HAP: Pair Verify M4 carries State alone.
                _ = decoder.match(rules: [])
                return .m4
            }
        }
    }

    /// The body as HomeKitADK lays it out: State first, absent values left out.
    public func encoded() -> [UInt8] {
        var writer = TLV8Writer()
        writer.append(state)
        switch self {
        case .m1(let message):
            writer.append(.publicKey, ifPresent: message.publicKey)
            writer.append(message.method)
            writer.append(.sessionID, ifPresent: message.sessionID)
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .m2(let message):
            writer.append(.publicKey, ifPresent: message.publicKey)
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .m3(let message):
            writer.append(.encryptedData, ifPresent: message.encryptedData)
        case .m4:
            break
        case .error(let response):
            response.encode(into: &writer)
        }
        return writer.bytes
    }
}
