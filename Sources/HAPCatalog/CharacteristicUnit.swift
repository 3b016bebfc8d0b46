/// The `unit` of a numeric characteristic. HAP defines only these five. (HAP: characteristic units.)
public enum CharacteristicUnit: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case celsius
    case percentage
    case arcdegrees
    case lux
    case seconds

    /// The unit named by a `unit` string; nil for a string HAP does not define.
    public init?(wireName: String) {
        self.init(rawValue: wireName)
    }

    public var wireName: String { rawValue }
    public var description: String { rawValue }
}
