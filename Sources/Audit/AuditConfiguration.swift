import HAPCrypto

/// What the user tells the audit about the accessory, and the thresholds its rules use.
public struct AuditConfiguration: Sendable {
    /// The accessory's setup code (`--setup-code`), checked against the codes HAP forbids.
    public var setupCode: SetupCode?
    /// The accessory's 4-character setup ID (`--setup-id`), checked against the advertised
    /// setup hash.
    public var setupID: String?
    public var thresholds: AuditThresholds

    /// Reads the setup code (`XXX-XX-XXX`) and setup ID (4 characters of `0-9A-Z`) as the user
    /// typed them.
    ///
    /// - Throws: `AuditConfigurationError` naming the value that is malformed.
    public init(setupCode: String? = nil, setupID: String? = nil, thresholds: AuditThresholds = AuditThresholds()) throws(AuditConfigurationError) {
        if let setupCode {
            do {
                self.setupCode = try SetupCode(setupCode)
            } catch {
                throw AuditConfigurationError("--setup-code: \(error.reason)")
            }
        }
        if let setupID {
            // PROTOCOL §7: the setup ID is 4 characters of [0-9A-Z] from the setup payload.
            let isValid = setupID.utf8.count == 4 && setupID.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
            guard isValid else {
                throw AuditConfigurationError("--setup-id: a setup ID is 4 characters of 0-9 and A-Z, not \"\(setupID)\"")
            }
            self.setupID = setupID
        }
        self.thresholds = thresholds
    }
}

/// A setup code or setup ID the audit cannot use.
public struct AuditConfigurationError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
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

extension AuditConfiguration {
    /// No setup code or setup ID, default thresholds: the rules that need them stay silent.
    public static let none = AuditConfiguration(withoutSetupCodeOrID: AuditThresholds())

    /// Nothing to check, so nothing to throw.
    private init(withoutSetupCodeOrID thresholds: AuditThresholds) {
        self.thresholds = thresholds
    }
}
