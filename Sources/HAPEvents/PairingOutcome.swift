import TLV8

/// How a pairing procedure ended.
public enum PairingOutcome: Sendable, Hashable, CustomStringConvertible {
    case succeeded
    /// The accessory answered with an Error item at `state`.
    case failed(state: PairingState, error: PairingErrorCode?, retryDelay: UInt64?)
    /// The connection ended, or another procedure started, after `lastState`.
    case incomplete(lastState: PairingState?)

    public var description: String {
        switch self {
        case .succeeded: "success"
        case .failed(let state, let error, let retryDelay):
            "\(error.map { "\($0)" } ?? "error") at \(state)" + (retryDelay.map { ", retry after \($0) s" } ?? "")
        case .incomplete(let lastState): "incomplete" + (lastState.map { " after \($0)" } ?? "")
        }
    }
}
