/// The error form of any pairing response: State, Error and, with the obsolete Backoff, RetryDelay.
public struct PairingErrorResponse: Sendable, Hashable {
    /// The step that failed (M2, M4 or M6).
    public var state: PairingState
    /// Nil when the Error item has the wrong length to be read.
    public var error: PairingErrorCode?
    /// Seconds to wait before retrying; obsolete since HAP R3.
    public var retryDelay: UInt64?

    public init(state: PairingState, error: PairingErrorCode?, retryDelay: UInt64? = nil) {
        self.state = state
        self.error = error
        self.retryDelay = retryDelay
    }

    /// Appends Error and RetryDelay; the caller has written State.
    func encode(into writer: inout TLV8Writer) {
        if let error { writer.append(.error, integer: UInt64(error.rawValue)) }
        if let retryDelay { writer.append(.retryDelay, integer: retryDelay) }
    }
}
