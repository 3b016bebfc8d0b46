/// Which way a HAP message went.
public enum HAPDirection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case controllerToAccessory = "controller-to-accessory"
    case accessoryToController = "accessory-to-controller"

    public var description: String { rawValue }
    public var reversed: HAPDirection { self == .controllerToAccessory ? .accessoryToController : .controllerToAccessory }
    /// The party that sends in this direction.
    public var sender: HAPParty { self == .controllerToAccessory ? .controller : .accessory }
}
