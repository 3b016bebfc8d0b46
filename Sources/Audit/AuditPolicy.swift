import HAPEvents

/// A group of audit rules that share the state they keep about the capture.
///
/// The auditor hands every event to every policy, in capture order, with the context as it
/// was before the event; rules judged on the whole capture (a brute-force burst, the setup
/// code) are judged on `inputEnded`.
protocol AuditPolicy {
    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger)
}
