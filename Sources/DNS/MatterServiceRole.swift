/// What a Matter DNS-SD service announces (Matter Core §4.3; connectedhomeip
/// `src/lib/dnssd/Constants.h`).
public enum MatterServiceRole: String, Sendable, Hashable, CustomStringConvertible {
    /// `_matter._tcp`: a commissioned node, one instance per fabric, named
    /// `<compressed fabric ID>-<node ID>` in hex.
    case operational
    /// `_matterc._udp`: a node that can be commissioned.
    case commissionable
    /// `_matterd._udp`: a commissioner offering user-directed commissioning.
    case commissioner

    /// The role a service type announces; nil for non-Matter types.
    public init?(_ type: ServiceType) {
        switch (type.service, type.transport) {
        case ("_matter", .tcp): self = .operational
        case ("_matterc", .udp): self = .commissionable
        case ("_matterd", .udp): self = .commissioner
        default: return nil
        }
    }

    public var description: String { rawValue }
}
