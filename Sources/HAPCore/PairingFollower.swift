import HAPEvents
import Packets
import TLV8
import WireParsing

/// Follows the pair-setup, pair-verify and `/pairings` exchanges of one connection, whatever the
/// transport carries them: decodes each message, opens the encrypted sub-TLVs and checks proofs
/// and signatures with what the key log and earlier exchanges provide, and emits a
/// `pairingMessage` event per message and a `pairingExchange` event per exchange.
///
/// A transport hands it each pairing body with its procedure and direction, in order; the
/// message that completes a pair-verify (or a transient pair-setup) returns how the session
/// continues.
package struct PairingFollower {
    package var exchange: PairingExchangeRecord?
    /// The controller this session belongs to, from a decrypted pair-verify M3.
    package var verifiedControllerID: String?
    /// The accessory's pairing identifier (= device id), from a decrypted M2 or M6.
    package var accessoryID: String?

    package init() {}

    /// Decodes one pairing request or response and advances the exchange.
    package mutating func follow(
        _ procedure: PairingProcedure, direction: HAPDirection, body bytes: RawSpan, packet: PacketInfo,
        connection: ConnectionInfo, context: AnalysisContext
    ) -> SessionStart? {
        var cursor = ByteCursor(bytes, layer: .tlv8)
        let body = TLV8Body(parsingLeniently: &cursor)
        if direction == .controllerToAccessory, startsNewExchange(procedure, body: body) {
            finish(at: packet, connection: connection, context: context)
            exchange = PairingExchangeRecord(procedure: procedure)
        } else if exchange?.procedure != procedure {
            // A response without the request that opened its procedure: the exchange open until
            // now ends here, and the response is decoded on its own.
            finish(at: packet, connection: connection, context: context)
            exchange = PairingExchangeRecord(procedure: procedure)
        }
        let expected = expectedState(direction: direction)
        let elapsed = exchange?.lastTime.map { packet.timestamp - $0 }
        let decoded = PairingContent.decode(body, as: procedure, expectedState: expected, requestMethod: exchange?.method)

        var step = StepResult()
        switch decoded.content {
        case .pairSetup(let message)?: step = pairSetupStep(message, context: context)
        case .pairVerify(let message)?: step = pairVerifyStep(message, context: context)
        case .pairings(let message)?: pairingsStep(message)
        case nil: break
        }
        exchange?.record(step.srpProblems)
        exchange?.append(.init(state: decoded.state, direction: direction, packet: packet))
        exchange?.lastState = decoded.state ?? expected
        exchange?.lastTime = packet.timestamp
        context.emit(.pairingMessage(PairingMessageEvent(
            connection: connection, direction: direction, procedure: procedure, state: decoded.state, content: decoded.content,
            body: body, diagnostics: decoded.diagnostics, srpProblems: step.srpProblems, decrypted: step.decrypted,
            elapsed: elapsed)), packet)
        if exchange?.outcome != nil {
            finish(at: packet, connection: connection, context: context)
        }
        return step.sessionStart
    }

    /// What one message added beyond its decoding.
    struct StepResult {
        var decrypted: PairingSubTLV?
        var sessionStart: SessionStart?
        var srpProblems: [SRPValueProblem] = []
    }

    /// A request opens a new exchange when it is an M1, or when no exchange of its procedure is open.
    private func startsNewExchange(_ procedure: PairingProcedure, body: TLV8Body) -> Bool {
        guard let exchange, exchange.procedure == procedure, exchange.outcome == nil else { return true }
        if let state = body.first(.state)?.value.first, state == PairingState.m1.rawValue { return true }
        return false
    }

    private func expectedState(direction: HAPDirection) -> PairingState? {
        guard let last = exchange?.lastState else { return direction == .controllerToAccessory ? .m1 : nil }
        return PairingState(rawValue: last.rawValue + 1)
    }

    // MARK: Pairings

    private mutating func pairingsStep(_ message: PairingsMessage) {
        switch message {
        case .addPairingM1, .removePairingM1, .listPairingsM1:
            exchange?.method = message.method
            exchange?.pairingsRequest = message
        case .addPairingM2, .removePairingM2, .listPairingsM2:
            exchange?.pairingsResponse = message
            exchange?.outcome = .succeeded
        case .error(let response):
            exchange?.pairingsResponse = message
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
        }
    }

    // MARK: The end

    /// Reports the exchange in progress, if it has any step; called when it ends, when another
    /// replaces it, and when the connection closes.
    package mutating func finish(at packet: PacketInfo?, connection: ConnectionInfo, context: AnalysisContext) {
        defer { exchange = nil }
        guard let exchange, !exchange.steps.isEmpty else { return }
        context.emit(.pairingExchange(exchange.event(connection: connection, sessionControllerID: verifiedControllerID)),
                     packet ?? exchange.steps.last?.packet)
    }
}
