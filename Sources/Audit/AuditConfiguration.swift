/// What the audit judges by: the thresholds of its rules, and what the user says about the
/// accessory that the wire cannot show. The facts about the user's own inputs (the setup code,
/// the setup ID) are judged by the analysis and reach the audit in events.
public struct AuditConfiguration: Sendable {
    public var thresholds: AuditThresholds
    /// How the accessory's setup code came to be, when the user says (`--setup-code-kind`): it
    /// decides whether a repeated SRP salt is HAP's design (`pairing/salt-reuse`).
    public var setupCodeKind: SetupCodeKind?

    public init(thresholds: AuditThresholds = AuditThresholds(), setupCodeKind: SetupCodeKind? = nil) {
        self.thresholds = thresholds
        self.setupCodeKind = setupCodeKind
    }
}

/// How an accessory's setup code came to be. The wire cannot tell: both kinds pair alike.
public enum SetupCodeKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Set at manufacture and printed on a label or stored for NFC: the accessory keeps the salt
    /// and verifier computed then and sends that salt in every M2 (ADK
    /// `HAPAccessorySetupInfoGetSetupInfo`).
    case provisioned
    /// Made up by the accessory for each pairing and shown on its display (or written to its NFC
    /// tag): ADK draws a new salt and verifier with each code (`HAPAccessorySetupInfo.c`).
    case generated

    public var description: String { rawValue }
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
    /// `sf-not-restored`: how long after the last pairing is removed an advertisement may still
    /// say `sf=0`, in seconds. The accessory re-announces at once (HAP-python within 20 ms, the
    /// recording toolkit's grace is 0.1 s); the rule only fires when no later advertisement says
    /// `sf=1` at all, so a stale answer cannot trigger it alone.
    public var statusFlagRestoreGracePeriod = 0.1
    /// `database-too-large`: the largest `/accessories` body, in bytes, controllers are taken to
    /// read. No source documents one; 128 KiB is hapscope's assumption (docs/audit-rules.md).
    public var maximumDatabaseBytes = 131_072
    /// Observations kept per finding; further ones are only counted.
    public var maximumEvidencePerFinding = 100
    /// Salts and ephemeral keys remembered to detect reuse; beyond it, new ones are not
    /// remembered (a capture of millions of pairings cannot exhaust memory).
    public var maximumRememberedValues = 65_536

    public init() {}
}
