/// Which way an HCI packet crossed the host–controller interface.
public enum HCIDirection: Hashable, Sendable, CustomStringConvertible {
    /// Commands and outgoing data: what the host's stack sent.
    case hostToController
    /// Events and incoming data: what the controller reported.
    case controllerToHost

    public var description: String {
        switch self {
        case .hostToController: "host→controller"
        case .controllerToHost: "controller→host"
        }
    }
}
