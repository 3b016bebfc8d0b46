import HAPEvents
import HAPJSON
import TLV8

extension EventJSON {
    static func writePairingMessage(_ event: PairingMessageEvent, into writer: inout JSONWriter) {
        writeConnection(event.connection, into: &writer)
        writer.member("direction", event.direction.rawValue)
        writer.member("procedure", event.procedure.rawValue)
        writer.member("state", event.state?.description)
        if let response = event.content?.errorResponse {
            writeError(response, into: &writer)
        }
        writeItems(event.body, into: &writer)
        writeDiagnostics(event.diagnostics, into: &writer)
        if let inner = event.decrypted {
            writer.object("decrypted") { writer in
                writer.member("identifier", inner.identifier.map(identifierText))
                writer.member("publicKey", hex: inner.publicKey)
                writer.member("signature", hex: inner.signature)
                writer.member("certificate", hex: inner.certificate)
            }
        }
        writer.member("elapsed", seconds: event.elapsed)
    }

    /// The items of a TLV8 body in wire order: type byte and stable field name, where they are,
    /// the display value and the raw value in hex. Offsets count from the body's first byte.
    static func writeItems(_ body: TLV8Body, into writer: inout JSONWriter) {
        writer.objects("items", body.items) { writer, item in
            writer.member("type", Int(item.type.rawValue))
            writer.member("field", item.fieldName)
            writer.member("offset", item.offset)
            writer.member("length", item.value.count)
            if item.fragmentCount > 1 { writer.member("fragments", item.fragmentCount) }
            writer.member("value", item.displayValue)
            writer.member("hex", hex: item.value)
        }
    }

    static func writeDiagnostics(_ diagnostics: [PairingDiagnostic], into writer: inout JSONWriter) {
        writer.objects("diagnostics", diagnostics) { writer, diagnostic in
            writer.member("offset", diagnostic.offset)
            writer.member("message", diagnostic.description)
        }
    }

    private static func writeError(_ response: PairingErrorResponse, into writer: inout JSONWriter) {
        writer.member("error", response.error?.description)
        writer.member("errorCode", response.error.map { Int($0.rawValue) })
        writer.member("retryDelay", response.retryDelay)
    }

    /// An identifier as text when it is UTF-8, else the byte summary the TLV8 module gives it.
    static func identifierText(_ identifier: PairingIdentifier) -> String {
        identifier.string ?? identifier.description
    }

    static func writePairingExchange(_ event: PairingExchangeEvent, clock: CaptureClock, into writer: inout JSONWriter) {
        writeConnection(event.connection, into: &writer)
        writer.member("procedure", event.procedure.rawValue)
        writer.member("method", event.method?.description)
        writer.member("flags", event.flags?.description)
        switch event.outcome {
        case .succeeded:
            writer.member("outcome", "succeeded")
        case .failed(let state, let error, let retryDelay):
            writer.member("outcome", "failed")
            writer.member("failedAt", state.description)
            writer.member("error", error?.description)
            writer.member("errorCode", error.map { Int($0.rawValue) })
            writer.member("retryDelay", retryDelay)
        case .incomplete(let lastState):
            writer.member("outcome", "incomplete")
            writer.member("lastState", lastState?.description)
        }
        writer.objects("steps", event.steps) { writer, step in
            writer.member("state", step.state?.description)
            writer.member("direction", step.direction.rawValue)
            writer.packetMembers(step.packet, clock: clock)
        }
        writer.objects("responseTimes", event.accessoryResponseTimes) { writer, time in
            writer.member("state", time.state.description)
            writer.member("seconds", seconds: time.seconds)
        }
        writer.objects("checks", event.checks) { writer, check in
            writer.member("name", check.name)
            switch check.outcome {
            case .passed: writer.member("outcome", "passed")
            case .failed: writer.member("outcome", "failed")
            case .notChecked(let reason):
                writer.member("outcome", "not-checked")
                writer.member("reason", reason)
            }
            if !check.detail.isEmpty { writer.member("detail", check.detail) }
        }
        writer.member("srpProblems", strings: event.srpProblems.map(\.description))
        writer.member("salt", hex: event.salt)
        writer.member("controllerEphemeralKey", hex: event.controllerEphemeralKey)
        writer.member("accessoryEphemeralKey", hex: event.accessoryEphemeralKey)
        writer.member("controllerPairingID", event.controllerPairingID)
        writer.member("accessoryPairingID", event.accessoryPairingID)
        writer.member("controllerLTPK", hex: event.controllerLTPK)
        writer.member("accessoryLTPK", hex: event.accessoryLTPK)
        if let request = event.pairingsRequest {
            writer.object("pairingsRequest") { writer in writePairings(request, into: &writer) }
        }
        if let response = event.pairingsResponse {
            writer.object("pairingsResponse") { writer in writePairings(response, into: &writer) }
        }
        writer.member("sessionControllerID", event.sessionControllerID)
    }

    /// A `/pairings` message by what it asks or answers.
    static func writePairings(_ message: PairingsMessage, into writer: inout JSONWriter) {
        writer.member("message", PairingText.name(of: message))
        switch message {
        case .addPairingM1(let add):
            writer.member("identifier", add.identifier.map(identifierText))
            writer.member("publicKey", hex: add.publicKey)
            writer.member("permissions", add.permissions?.description)
        case .removePairingM1(let remove):
            writer.member("identifier", remove.identifier.map(identifierText))
        case .listPairingsM2(let list):
            writer.objects("pairings", list.pairings) { writer, entry in
                writer.member("identifier", entry.identifier.map(identifierText))
                writer.member("publicKey", hex: entry.publicKey)
                writer.member("permissions", entry.permissions?.description)
            }
        case .error(let response):
            writeError(response, into: &writer)
        case .addPairingM2, .removePairingM2, .listPairingsM1:
            break
        }
    }
}

extension PairingContent {
    /// The error form of the message, when the accessory refused.
    var errorResponse: PairingErrorResponse? {
        switch self {
        case .pairSetup(.error(let response)), .pairVerify(.error(let response)), .pairings(.error(let response)):
            response
        default:
            nil
        }
    }
}
