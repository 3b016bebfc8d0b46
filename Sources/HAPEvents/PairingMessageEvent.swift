import TLV8

/// One step of a pairing ladder: a pair-setup, pair-verify or `/pairings` message, decoded.
public struct PairingMessageEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let procedure: PairingProcedure
    /// The state the message is at: from its State item, or assumed from the exchange.
    public let state: PairingState?
    public let content: PairingContent?
    /// The body as decoded, items in wire order, and what a strict reader would reject.
    public let body: TLV8Body
    public let diagnostics: [PairingDiagnostic]
    /// SRP values of this message that break HAP's rules (pair-setup M2 and M3).
    public let srpProblems: [SRPValueProblem]
    /// The `EncryptedData` sub-TLV, when the key log let hapscope open it.
    public let decrypted: PairingSubTLV?
    /// Seconds since the previous message of the same exchange; for a response, how long the
    /// accessory took.
    public let elapsed: Double?

    public init(
        connection: ConnectionInfo, direction: HAPDirection, procedure: PairingProcedure, state: PairingState?,
        content: PairingContent?, body: TLV8Body, diagnostics: [PairingDiagnostic], srpProblems: [SRPValueProblem] = [],
        decrypted: PairingSubTLV? = nil, elapsed: Double? = nil
    ) {
        self.connection = connection
        self.direction = direction
        self.procedure = procedure
        self.state = state
        self.content = content
        self.body = body
        self.diagnostics = diagnostics
        self.srpProblems = srpProblems
        self.decrypted = decrypted
        self.elapsed = elapsed
    }
}
