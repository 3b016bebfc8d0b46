/// What the audit judges by: the thresholds of its rules. The facts about the user's own inputs
/// (the setup code, the setup ID) are judged by the analysis and reach the audit in events.
public struct AuditConfiguration: Sendable {
    public var thresholds: AuditThresholds

    public init(thresholds: AuditThresholds = AuditThresholds()) {
        self.thresholds = thresholds
    }
}

/// The numbers the rules judge by, with the defaults docs/audit-rules.md documents.
public struct AuditThresholds: Sendable, Hashable {
    /// `setup-no-backoff`: how many failed pair setups (M4 Error=Authentication) within
    /// `failedSetupWindow` make a brute-force burst.
    public var failedSetupAttempts = 5
    /// `setup-no-backoff`: the window, in seconds.
    public var failedSetupWindow = 60.0
    /// `sf-unpaired-while-paired`: how long after a pairing is stored an accessory may still
    /// advertise `sf` bit 0, in seconds (announcements already queued; HAP-python re-announces
    /// within 20 ms).
    public var statusFlagGracePeriod = 1.0
    /// Observations kept per finding; further ones are only counted.
    public var maximumEvidencePerFinding = 100
    /// Salts and ephemeral keys remembered to detect reuse; beyond it, new ones are not
    /// remembered (a capture of millions of pairings cannot exhaust memory).
    public var maximumRememberedValues = 65_536

    public init() {}
}
