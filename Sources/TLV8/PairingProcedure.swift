/// The three pairing procedures HAP runs: pair-setup, pair-verify and the `/pairings`
/// administration (over HTTP for HAP over IP, over the pairing service's characteristics for
/// HAP over Bluetooth LE, over CoAP resources for HAP over Thread).
public enum PairingProcedure: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case pairSetup = "pair-setup"
    case pairVerify = "pair-verify"
    case pairings = "pairings"

    public var description: String { rawValue }
}

/// A pairing body decoded for its procedure.
public enum PairingContent: Sendable, Hashable {
    case pairSetup(PairSetupMessage)
    case pairVerify(PairVerifyMessage)
    case pairings(PairingsMessage)

    /// Decodes `body` as a message of `procedure`: the one decoding every caller uses, whether it
    /// follows an exchange or reads a blob from a log.
    ///
    /// - Parameters:
    ///   - expectedState: the step the exchange is at, used when the body carries no State.
    ///   - requestMethod: for a `/pairings` response, the Method of the request it answers.
    public static func decode(
        _ body: TLV8Body, as procedure: PairingProcedure, expectedState: PairingState? = nil,
        requestMethod: PairingMethod? = nil
    ) -> DecodedPairingBody<PairingContent> {
        switch procedure {
        case .pairSetup:
            let decoded = PairSetupMessage.decode(body, expectedState: expectedState)
            return DecodedPairingBody(
                content: decoded.content.map(PairingContent.pairSetup), state: decoded.state,
                diagnostics: decoded.diagnostics, body: decoded.body)
        case .pairVerify:
            let decoded = PairVerifyMessage.decode(body, expectedState: expectedState)
            return DecodedPairingBody(
                content: decoded.content.map(PairingContent.pairVerify), state: decoded.state,
                diagnostics: decoded.diagnostics, body: decoded.body)
        case .pairings:
            let decoded = PairingsMessage.decode(body, expectedState: expectedState, requestMethod: requestMethod)
            return DecodedPairingBody(
                content: decoded.content.map(PairingContent.pairings), state: decoded.state,
                diagnostics: decoded.diagnostics, body: decoded.body)
        }
    }
}
