import HAPCrypto
import HAPEvents

/// What the user asked the analysis to use and to bound.
public struct AnalysisConfiguration: Sendable {
    public var keyLog: KeyLog
    /// The accessory's setup code, when the user knows it: judged against HAP's forbidden codes
    /// (`InputSummary.setupCode`).
    public var setupCode: SetupCode?
    /// The setup ID, to check advertised setup hashes (`AdvertisementEvent.setupHashMatches`).
    public var setupID: SetupID?
    public var limits: AnalysisLimits
    /// Whether session keys may appear in events (`--show-keys`). Off by default, so that no
    /// report can print a secret by accident.
    public var revealsSessionKeys: Bool
    /// Whether decrypted session bytes are emitted as `decryptedData` events, for consumers that
    /// rebuild the capture (the decrypted-capture export). Off by default: it copies every
    /// frame's plaintext.
    public var emitsDecryptedData: Bool
    /// Databases for captures that hold no `/accessories` (`--accessories`).
    public var suppliedDatabases: [SuppliedDatabase] = []

    public init(
        keyLog: KeyLog = KeyLog(), setupCode: SetupCode? = nil, setupID: SetupID? = nil,
        limits: AnalysisLimits = AnalysisLimits(), revealsSessionKeys: Bool = false, emitsDecryptedData: Bool = false
    ) {
        self.keyLog = keyLog
        self.setupCode = setupCode
        self.setupID = setupID
        self.limits = limits
        self.revealsSessionKeys = revealsSessionKeys
        self.emitsDecryptedData = emitsDecryptedData
    }
}
