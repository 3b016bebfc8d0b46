/// Something about an mDNS message as a whole that a consumer of its advertisements should
/// know (RFC 6762, RFC 6763).
public typealias DiscoveryDiagnostic = DNSDiagnostic<DiscoveryProblem>

/// What a `DiscoveryDiagnostic` reports; its offset is that of the record or header concerned.
public enum DiscoveryProblem: Sendable, Hashable, CustomStringConvertible {
    /// The SRV record names a host whose A and AAAA records are not in the message, so a
    /// browser needs another query to connect (RFC 6763 §12.2 asks responders to add them).
    case targetWithoutAddress(instance: DNSName, target: DNSName)
    /// OPCODE is not 0; mDNS receivers must ignore the message (RFC 6762 §18.3).
    case nonzeroOpcode(DNSHeader.Opcode)
    /// RCODE is not 0; mDNS receivers must ignore the message (RFC 6762 §18.11).
    case nonzeroResponseCode(DNSHeader.ResponseCode)

    public var description: String {
        switch self {
        case .targetWithoutAddress(let instance, let target):
            "\(instance.displayText): SRV target \(target.displayText) has no A or AAAA record in the message"
        case .nonzeroOpcode(let opcode): "OPCODE \(opcode) in an mDNS message, which receivers ignore (RFC 6762 §18.3)"
        case .nonzeroResponseCode(let code): "RCODE \(code) in an mDNS message, which receivers ignore (RFC 6762 §18.11)"
        }
    }
}
