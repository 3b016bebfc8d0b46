import HAPEvents

/// The security and conformance audit: a consumer of the analyzer's event stream that judges
/// what it sees against HAP's rules and produces findings.
///
/// Feed it every event in capture order (it conforms to `HAPEventConsumer`); once it has seen
/// `inputEnded`, `findings` is the complete verdict.
///
/// ```swift
/// let auditor = Auditor()
/// AnalysisPipeline(configuration: analysis, consumers: [auditor]).run(reader)
/// if auditor.findings.reachSeverity(.medium) { exit(1) }
/// ```
///
/// The auditor never looks at packets: everything it knows comes from the events, so it judges a
/// live capture, a file and a replayed event log alike.
public final class Auditor: HAPEventConsumer {
    public let configuration: AuditConfiguration
    private var context: AuditContext
    private var ledger: FindingLedger
    private var accessControl = AccessControlPolicy()
    private var pairSetup: PairSetupPolicy
    private var keyExchange: KeyExchangePolicy
    private var session: SessionPolicy
    private var discovery: DiscoveryPolicy
    private var database: DatabasePolicy
    private var pairingLifecycle: PairingLifecyclePolicy
    private var history: CaptureHistoryPolicy
    private var responsiveness = ResponsivenessPolicy()
    private var notifications = NotificationPolicy()
    /// Whether `inputEnded` has been seen, so that `findings` is complete.
    public private(set) var isComplete = false

    public init(configuration: AuditConfiguration = AuditConfiguration()) {
        self.configuration = configuration
        let thresholds = configuration.thresholds
        context = AuditContext(maximumAccessories: thresholds.maximumRememberedValues)
        ledger = FindingLedger(maximumEvidencePerFinding: thresholds.maximumEvidencePerFinding)
        pairSetup = PairSetupPolicy(thresholds: thresholds, setupCodeKind: configuration.setupCodeKind)
        keyExchange = KeyExchangePolicy(maximumRememberedKeys: thresholds.maximumRememberedValues)
        session = SessionPolicy(maximumSuspectsPerConnection: thresholds.maximumRememberedValues)
        discovery = DiscoveryPolicy(thresholds: thresholds)
        database = DatabasePolicy(thresholds: thresholds)
        pairingLifecycle = PairingLifecyclePolicy(thresholds: thresholds)
        history = CaptureHistoryPolicy(thresholds: thresholds)
    }

    public func consume(_ event: HAPEvent) {
        accessControl.observe(event, in: context, findings: &ledger)
        pairSetup.observe(event, in: context, findings: &ledger)
        keyExchange.observe(event, in: context, findings: &ledger)
        session.observe(event, in: context, findings: &ledger)
        discovery.observe(event, in: context, findings: &ledger)
        database.observe(event, in: context, findings: &ledger)
        pairingLifecycle.observe(event, in: context, findings: &ledger)
        history.observe(event, in: context, findings: &ledger)
        responsiveness.observe(event, in: context, findings: &ledger)
        notifications.observe(event, in: context, findings: &ledger)
        context.apply(event)
        if case .inputEnded = event.kind { isComplete = true }
    }

    /// The findings, most severe first, then in capture order. Rules judged on the whole capture
    /// (brute-force bursts, the setup code) are included once the input has ended.
    public var findings: [Finding] { ledger.sortedFindings }
}
