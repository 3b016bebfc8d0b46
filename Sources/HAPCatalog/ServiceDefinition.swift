/// What the catalogue knows about one service type.
public struct ServiceDefinition: Hashable, Sendable {
    public let type: HAPUUID
    /// The display name, in Apple's metadata wording (`"Accessory Information"`).
    public let name: String
    /// The characteristic types every instance must have.
    public let requiredCharacteristics: [HAPUUID]
    /// The characteristic types an instance may add.
    public let optionalCharacteristics: [HAPUUID]
    /// The first iOS release with this type (`"iOS 14"`), when known.
    public let introduced: String?

    public init(
        type: HAPUUID, name: String, requiredCharacteristics: [HAPUUID], optionalCharacteristics: [HAPUUID],
        introduced: String?
    ) {
        self.type = type
        self.name = name
        self.requiredCharacteristics = requiredCharacteristics
        self.optionalCharacteristics = optionalCharacteristics
        self.introduced = introduced
    }
}
