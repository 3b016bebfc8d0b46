import HAPEvents
import Packets
import TLV8
import WireParsing

/// The keys of pair verify and the signatures of both pairing procedures:
/// `ephemeral-key-reuse` and `bad-signature`.
struct KeyExchangePolicy: AuditPolicy {
    private let maximumRememberedKeys: Int
    /// Where each ephemeral public key was first used, per side.
    private var controllerKeys: [[UInt8]: KeyUse] = [:]
    private var accessoryKeys: [[UInt8]: KeyUse] = [:]
    /// Controller key ‖ accessory key of every pair verify: a repeat means repeated session keys.
    private var keyPairs: Set<[UInt8]> = []
    private var rememberedCount = 0
    /// The controller key of the pair verify in progress, per connection.
    private var pendingControllerKeys: [Int: [UInt8]] = [:]
    /// The messages of the exchange in progress whose signed sub-TLV hapscope opened, per
    /// connection: a failed signature check on them is a bad signature, not a missing key.
    private var openedSubTLVs: [Int: [PairingState: PacketInfo]] = [:]

    private struct KeyUse {
        let packet: PacketInfo
        let connectionID: Int
    }

    init(maximumRememberedKeys: Int) {
        self.maximumRememberedKeys = maximumRememberedKeys
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .pairingMessage(let message):
            guard let packet = event.packet else { return }
            if let state = message.state, message.decrypted?.signature != nil {
                openedSubTLVs[message.connection.id, default: [:]][state] = packet
            }
            if case .pairVerify(let content)? = message.content {
                observe(content, on: message.connection, at: packet, in: context, findings: &findings)
            }
        case .pairingExchange(let exchange):
            checkSignatures(exchange, findings: &findings)
            openedSubTLVs.removeValue(forKey: exchange.connection.id)
        case .connectionClosed(let summary):
            pendingControllerKeys.removeValue(forKey: summary.connection.id)
            openedSubTLVs.removeValue(forKey: summary.connection.id)
        default:
            break
        }
    }

    private mutating func observe(
        _ content: PairVerifyMessage, on connection: ConnectionInfo, at packet: PacketInfo, in context: AuditContext,
        findings: inout FindingLedger
    ) {
        guard let accessory = context.accessoryKey(of: connection.id) else { return }
        switch content {
        case .m1(let m1):
            guard let key = m1.publicKey else { return }
            pendingControllerKeys[connection.id] = key
            if let first = controllerKeys[key] {
                findings.record(.ephemeralKeyReuse, .accessory(accessory), party: .controller, Evidence(
                    packet: packet, connection: connection,
                    detail: "pair-verify M1 carries the controller ephemeral X25519 public key \(Hex.encode(key)), "
                        + "already used by pair-verify M1 on #\(first.connectionID) (packet #\(first.packet.number))"))
            } else if canRemember() {
                controllerKeys[key] = KeyUse(packet: packet, connectionID: connection.id)
            }
        case .m2(let m2):
            guard let key = m2.publicKey else { return }
            let controllerKey = pendingControllerKeys.removeValue(forKey: connection.id)
            var sessionKeysRepeat = false
            if let controllerKey {
                let pair = controllerKey + key
                sessionKeysRepeat = keyPairs.contains(pair)
                if !sessionKeysRepeat, canRemember() { keyPairs.insert(pair) }
            }
            if let first = accessoryKeys[key] {
                let consequence = sessionKeysRepeat
                    ? "; the controller repeated its key too, so both sessions have the same session keys and nonces"
                    : ""
                findings.record(.ephemeralKeyReuse, .accessory(accessory), severity: sessionKeysRepeat ? .high : nil, Evidence(
                    packet: packet, connection: connection,
                    detail: "pair-verify M2 carries the accessory ephemeral X25519 public key \(Hex.encode(key)), "
                        + "already used by pair-verify M2 on #\(first.connectionID) (packet #\(first.packet.number))"
                        + consequence))
            } else if canRemember() {
                accessoryKeys[key] = KeyUse(packet: packet, connectionID: connection.id)
            }
        case .m3, .m4, .error:
            break
        }
    }

    /// Counts one more remembered key, or says the limit is reached.
    private mutating func canRemember() -> Bool {
        guard rememberedCount < maximumRememberedKeys else { return false }
        rememberedCount += 1
        return true
    }

    /// A failed signature check counts only when the sub-TLV it covers was opened: otherwise
    /// the key log lacked the key, which says nothing about the signer.
    private func checkSignatures(_ exchange: PairingExchangeEvent, findings: inout FindingLedger) {
        let opened = openedSubTLVs[exchange.connection.id] ?? [:]
        for check in exchange.checks where check.outcome == .failed {
            guard case .signature(let state) = check.kind, let packet = opened[state] else { continue }
            // HAP: the accessory signs pair-verify M2 and pair-setup M6, the controller M3 and M5.
            let signer: HAPParty = state.isResponse ? .accessory : .controller
            findings.record(.badSignature, .connection(exchange.connection), party: signer, Evidence(
                packet: packet, connection: exchange.connection,
                detail: "\(exchange.procedure) \(state): \(check.detail)"))
        }
    }
}
