import HAPEvents
import TLV8

/// How pairing messages and outcomes are named in every report.
enum PairingText {
    /// `Add Pairing M1`, `List Pairings M2`, `error M2`.
    static func name(of message: PairingsMessage) -> String {
        switch message {
        case .addPairingM1: "Add Pairing M1"
        case .addPairingM2: "Add Pairing M2"
        case .removePairingM1: "Remove Pairing M1"
        case .removePairingM2: "Remove Pairing M2"
        case .listPairingsM1: "List Pairings M1"
        case .listPairingsM2: "List Pairings M2"
        case .error(let response): "error \(response.state)"
        }
    }

    /// `succeeded`, `failed at M4: Authentication (2)`, `incomplete after M3`.
    static func outcome(_ outcome: PairingOutcome) -> String {
        switch outcome {
        case .succeeded:
            "succeeded"
        case .failed(let state, let error, let retryDelay):
            "failed at \(state): \(error.map { "\($0)" } ?? "error")" + (retryDelay.map { ", retry after \($0) s" } ?? "")
        case .incomplete(let lastState):
            "incomplete" + (lastState.map { " after \($0)" } ?? "")
        }
    }

    static func role(_ outcome: PairingOutcome) -> TextStyle.Role {
        switch outcome {
        case .succeeded: .good
        case .failed: .bad
        case .incomplete: .warning
        }
    }

    /// What the pairings exchange did: `List Pairings: 2 pairings`, `Add Pairing "…" Admin (1)`.
    static func pairingsSummary(_ exchange: PairingExchangeEvent) -> String? {
        switch exchange.pairingsRequest {
        case .addPairingM1(let add)?:
            return "Add Pairing \(add.identifier.map { $0.description } ?? "(no identifier)")"
                + (add.permissions.map { " as \($0)" } ?? "")
        case .removePairingM1(let remove)?:
            return "Remove Pairing \(remove.identifier.map { $0.description } ?? "(no identifier)")"
        case .listPairingsM1?:
            if case .listPairingsM2(let list)? = exchange.pairingsResponse {
                return "List Pairings: \(list.pairings.count) pairing\(list.pairings.count == 1 ? "" : "s")"
            }
            return "List Pairings"
        default:
            return nil
        }
    }

    /// `✓`, `✗` or `–` and the check in words.
    /// Details name pairing identifiers as sent, so they are sanitized like any capture string.
    static func check(_ check: PairingCheck, style: TextStyle) -> String {
        let detail = check.detail.isEmpty ? "" : ": " + TerminalText.sanitized(check.detail)
        switch check.outcome {
        case .passed:
            return style.paint("✓ \(check.name)", .good) + detail
        case .failed:
            return style.paint("✗ \(check.name)", .bad) + detail
        case .notChecked(let reason):
            return style.paint("– \(check.name): not checked (\(TerminalText.sanitized(reason)))", .dim)
        }
    }
}
