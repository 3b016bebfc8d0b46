import HAPEvents
import Packets
import TLV8
import WireParsing

/// Pair setup: `setup-while-paired`, `setup-no-backoff`, `srp-malformed`, `srp-proof-mismatch`,
/// `salt-reuse` and `forbidden-setup-code`.
struct PairSetupPolicy: AuditPolicy {
    /// A public value at most this many bytes short of 384 is a value whose leading zero bytes
    /// were stripped (1 value in 256 loses a byte, 1 in 2^64 loses eight); a shorter one is no
    /// random value at all.
    static let strippedByteAllowance = 8
    /// The length of the 3072-bit prime N, the length every A and B should have.
    static let primeByteCount = 384

    private let thresholds: AuditThresholds
    private let setupCodeKind: SetupCodeKind?
    /// The pair setup in progress on each connection.
    private var inProgress: [Int: SetupInProgress] = [:]
    /// Every salt each accessory sent, with where it first appeared.
    private var salts: [String: [[UInt8]: SaltUse]] = [:]
    private var saltCount = 0
    private var m2Counts: [String: Int] = [:]
    /// Wrong setup codes per accessory, for brute-force bursts.
    private var failedSetups: [String: FailedSetupBursts] = [:]
    private var firstCompletedSetup: (packet: PacketInfo, connection: ConnectionInfo)?

    private struct SetupInProgress {
        /// M1's flags: Split reuses a salt on purpose.
        var flags: PairingFlags?
        /// A controller's A ≡ 0 mod N, judged by how the accessory answers it.
        var forgedKey: Evidence?
    }

    private struct SaltUse {
        let ordinal: Int
        let packet: PacketInfo
        let connectionID: Int
    }

    init(thresholds: AuditThresholds, setupCodeKind: SetupCodeKind?) {
        self.thresholds = thresholds
        self.setupCodeKind = setupCodeKind
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .pairingMessage(let message):
            guard message.procedure == .pairSetup, case .pairSetup(let content)? = message.content,
                  let packet = event.packet else { return }
            observe(content, of: message, at: packet, in: context, findings: &findings)
        case .pairingExchange(let exchange) where exchange.procedure == .pairSetup:
            exchangeEnded(exchange, at: event.packet, in: context, findings: &findings)
        case .connectionClosed(let summary):
            inProgress.removeValue(forKey: summary.connection.id)
        case .inputEnded(let summary):
            for accessory in failedSetups.keys.sorted() {
                if let burst = failedSetups[accessory]?.finish() { record(burst, accessory: accessory, findings: &findings) }
            }
            if let setupCode = summary.setupCode { judge(setupCode, findings: &findings) }
        default:
            break
        }
    }

    // MARK: Messages

    private mutating func observe(
        _ content: PairSetupMessage, of message: PairingMessageEvent, at packet: PacketInfo, in context: AuditContext,
        findings: inout FindingLedger
    ) {
        let connection = message.connection
        switch content {
        case .m1(let m1):
            inProgress[connection.id] = SetupInProgress(flags: m1.flags)
        case .m2(let m2):
            guard let accessory = context.accessoryKey(of: connection.id) else { return }
            checkPaired(accessory, connection: connection, at: packet, in: context, findings: &findings)
            if let salt = m2.salt {
                checkSalt(salt, problems: message.srpProblems, accessory: accessory, connection: connection, at: packet, findings: &findings)
            }
            if let b = m2.publicKey {
                checkPublicValue(b, of: .accessory, problems: message.srpProblems, connection: connection, at: packet, findings: &findings)
            }
        case .m3(let m3):
            if let a = m3.publicKey {
                checkPublicValue(a, of: .controller, problems: message.srpProblems, connection: connection, at: packet, findings: &findings)
            }
        case .m4:
            judgeForgedKey(on: connection, accepted: true, findings: &findings)
        case .error(let response) where response.state == .m4:
            judgeForgedKey(on: connection, accepted: false, findings: &findings)
        case .m5, .m6, .error:
            break
        }
    }

    /// HAP: Pair Setup M2 must be Error=Unavailable once the accessory is paired.
    private func checkPaired(
        _ accessory: String, connection: ConnectionInfo, at packet: PacketInfo, in context: AuditContext,
        findings: inout FindingLedger
    ) {
        let roster = context.roster(of: accessory)
        let reason: String
        if roster.isPaired == true {
            reason = "it had stored \(roster.count) pairing(s)" + (roster.pairedSince.map { " since packet #\($0.number)" } ?? "")
        } else if let advertisement = context.advertisement(of: accessory), let flags = advertisement.txt.statusFlags,
                  !flags.contains(.notPaired) {
            reason = "it advertised sf=\(flags.rawValue), bit 0 clear (paired), in packet #\(advertisement.packet.number)"
        } else {
            return
        }
        findings.record(.setupWhilePaired, .connection(connection), accessory: accessory, Evidence(
            packet: packet, connection: connection,
            detail: "pair-setup M2 answered normally (no Error item) although the accessory was paired: \(reason); "
                + "HAP requires M2 Error=Unavailable (6)"))
    }

    private mutating func checkSalt(
        _ salt: [UInt8], problems: [SRPValueProblem], accessory: String, connection: ConnectionInfo, at packet: PacketInfo,
        findings: inout FindingLedger
    ) {
        for problem in problems {
            guard case .saltLength = problem else { continue }
            findings.record(.srpMalformed, .connection(connection), accessory: accessory, Evidence(
                packet: packet, connection: connection,
                detail: "pair-setup M2: \(problem) (salt \(Hex.encode(salt)))"))
        }
        let ordinal = m2Counts[accessory, default: 0] + 1
        m2Counts[accessory] = ordinal
        // Split pair setup reuses the salt kept from a transient one on purpose (PROTOCOL §2.5).
        if inProgress[connection.id]?.flags?.contains(.split) == true { return }
        if let first = salts[accessory]?[salt] {
            // The wire cannot tell a provisioned code's stored salt from a static verifier: the user says.
            let (severity, meaning): (Severity?, String) = switch setupCodeKind {
            case .provisioned?:
                (nil, "by design for the provisioned setup code the user named: ADK sends the salt stored at provisioning "
                    + "in every M2, and only the SRP secret b is new")
            case .generated?:
                (.low, "although the user says the accessory generates its setup codes, for which ADK draws a fresh salt "
                    + "and verifier every time: the verifier is static")
            case nil:
                (nil, "by design if the setup code is provisioned (ADK sends its stored salt in every M2); a static "
                    + "verifier if the accessory generates its codes (say which with --setup-code-kind)")
            }
            findings.record(.saltReuse, .accessory(accessory), severity: severity, Evidence(
                packet: packet, connection: connection,
                detail: "pair-setup M2 #\(ordinal) carries the SRP salt \(Hex.encode(salt)), already sent in M2 "
                    + "#\(first.ordinal) (packet #\(first.packet.number) on #\(first.connectionID)): \(meaning)"))
        } else if saltCount < thresholds.maximumRememberedValues {
            salts[accessory, default: [:]][salt] = SaltUse(ordinal: ordinal, packet: packet, connectionID: connection.id)
            saltCount += 1
        }
    }

    private mutating func checkPublicValue(
        _ value: [UInt8], of party: HAPParty, problems: [SRPValueProblem], connection: ConnectionInfo, at packet: PacketInfo,
        findings: inout FindingLedger
    ) {
        let step = party == .accessory ? "M2" : "M3"
        let name = SRPValueProblem.publicValueName(of: party)
        let shortfall = Self.primeByteCount - value.count
        let problem = problems.first { problem in
            switch problem {
            case .saltLength: false
            case .publicValueTooLong(let sender, _), .publicValueZeroModuloPrime(let sender), .publicValueNotReduced(let sender): sender == party
            }
        }
        switch problem {
        case .publicValueZeroModuloPrime?:
            let evidence = Evidence(
                packet: packet, connection: connection,
                detail: "pair-setup \(step) sends \(name) ≡ 0 mod N (\(value.count) bytes, \(Self.abbreviate(value))), "
                    + "which forces the SRP shared secret to 0: the proof can be computed without the setup code")
            if party == .controller {
                inProgress[connection.id, default: SetupInProgress()].forgedKey = evidence
            } else {
                findings.record(.srpMalformed, .connection(connection), severity: .high, evidence)
            }
        case let problem?:
            findings.record(.srpMalformed, .connection(connection), party: party, Evidence(
                packet: packet, connection: connection, detail: "pair-setup \(step): \(problem)"))
        case nil where shortfall > Self.strippedByteAllowance:
            findings.record(.srpMalformed, .connection(connection), party: party, Evidence(
                packet: packet, connection: connection,
                detail: "pair-setup \(step) sends \(name) of \(value.count) bytes: \(shortfall) bytes short of 384, "
                    + "too small for a random value"))
        case nil where shortfall > 0:
            findings.record(.srpMalformed, .connection(connection), severity: .info, party: party, Evidence(
                packet: packet, connection: connection,
                detail: "pair-setup \(step) sends \(name) of \(value.count) bytes, its leading zero byte(s) stripped "
                    + "(ADK and HAP-python do this; controllers that hash it unpadded fail this pair setup)"))
        case nil:
            break
        }
    }

    /// A forged A is the controller's doing; accepting it is the accessory's (stock HAP-python
    /// does, PROTOCOL §2.2: ADK answers Authentication).
    private mutating func judgeForgedKey(on connection: ConnectionInfo, accepted: Bool?, findings: inout FindingLedger) {
        guard let forged = inProgress[connection.id]?.forgedKey else { return }
        inProgress[connection.id]?.forgedKey = nil
        let verdict = switch accepted {
        case true?: "the accessory ACCEPTED it: its M4 carries a proof, so SRP succeeded without the setup code"
        case false?: "the accessory refused it with M4 Error, as HAP requires"
        case nil: "the accessory did not answer it"
        }
        // Accepting it is the accessory's failure; a refused one is only the controller's doing.
        findings.record(
            .srpMalformed, .connection(connection), severity: accepted == true ? .high : .low,
            party: accepted == true ? .accessory : .controller, Evidence(
            packet: forged.packet, connection: connection, detail: "\(forged.detail); \(verdict)"))
    }

    // MARK: Exchanges

    private mutating func exchangeEnded(
        _ exchange: PairingExchangeEvent, at packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        let connection = exchange.connection
        judgeForgedKey(on: connection, accepted: nil, findings: &findings)
        inProgress.removeValue(forKey: connection.id)

        let controllerProof = exchange.check(.srpControllerProof)
        if controllerProof?.outcome == .passed, exchange.check(.srpAccessoryProof)?.outcome == .failed {
            let m4 = exchange.steps.last { $0.state == .m4 && $0.direction == .accessoryToController }
            findings.record(.srpProofMismatch, .connection(connection), Evidence(
                packet: m4?.packet ?? packet, connection: connection,
                detail: "the accessory's M4 proof does not match the session key K from the key log, although the "
                    + "controller's M3 proof matched it (\(controllerProof?.detail ?? "")); the controller must abort"))
        }

        guard let packet, let accessory = context.accessoryKey(of: connection.id) else { return }
        switch exchange.outcome {
        // A wrong setup code fails at M4 with Authentication (PROTOCOL §2.1); Backoff and MaxTries
        // at any step are the accessory throttling.
        case .failed(let state, let error?, _) where (state == .m4 && error == .authentication) || error == .backoff || error == .maxTries:
            let attempt = FailedSetupBursts.Attempt(
                started: exchange.steps.first?.packet ?? packet, ended: packet, connection: connection, error: error)
            var bursts = failedSetups[accessory]
                ?? FailedSetupBursts(threshold: thresholds.failedSetupAttempts, window: thresholds.failedSetupWindow)
            let (joined, ended) = bursts.add(attempt)
            failedSetups[accessory] = bursts
            for attempt in joined {
                findings.record(.setupNoBackoff, .accessory(accessory), Evidence(
                    packet: attempt.ended, connection: attempt.connection, detail: "pair setup failed: M4 Error=\(attempt.error)"))
            }
            if let ended { record(ended, accessory: accessory, findings: &findings) }
        case .succeeded where !exchange.isTransientSetup:
            if firstCompletedSetup == nil { firstCompletedSetup = (packet, connection) }
        default:
            break
        }
    }

    // MARK: The whole capture

    /// Sums a burst up where it started: how many wrong codes, how fast, never throttled.
    private func record(_ burst: FailedSetupBursts.Burst, accessory: String, findings: inout FindingLedger) {
        let seconds = burst.last.ended.timestamp - burst.first.started.timestamp
        findings.record(.setupNoBackoff, .accessory(accessory), Evidence(
            packet: burst.first.started, connection: burst.first.connection,
            detail: "\(burst.count) pair setups failed with a wrong setup code within \(Self.format(seconds)) s "
                + "(packets #\(burst.first.started.number) to #\(burst.last.ended.number)); the accessory answered none "
                + "of them with Backoff (3) or MaxTries (5)"))
    }

    private func judge(_ setupCode: SetupCodeFact, findings: inout FindingLedger) {
        guard let reason = setupCode.forbiddenBecause else { return }
        let completion = firstCompletedSetup.map { "; a pair setup completed in packet #\($0.packet.number) on #\($0.connection.id)" }
        findings.record(.forbiddenSetupCode, .capture, Evidence(
            packet: firstCompletedSetup?.packet, connection: firstCompletedSetup?.connection,
            detail: "the setup code \(setupCode.code) is forbidden by HAP: \(reason)"
                + (completion ?? "; the capture holds no completed pair setup")))
    }

    // MARK: Text

    static func abbreviate(_ bytes: [UInt8]) -> String {
        bytes.count <= 8 ? Hex.encode(bytes) : Hex.encode(bytes.prefix(8)) + "…"
    }

    /// Seconds with two decimals.
    static func format(_ seconds: Double) -> String {
        // Capture times are arbitrary Int64 seconds: a difference may not fit an Int in hundredths.
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds)" }
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths.magnitude % 100
        return (hundredths < 0 ? "-" : "") + "\(hundredths.magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
