/// The two roles of HAP: the controller (a phone, a home hub, Home Assistant) and the
/// accessory. Findings say which of them departs from HAP.
public enum HAPParty: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case controller
    case accessory

    public var description: String { rawValue }
}
