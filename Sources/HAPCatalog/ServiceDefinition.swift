/// What the catalogue knows about one service type.
public struct ServiceDefinition: Hashable, Sendable {
    public let type: HAPUUID
    /// The display name, in Apple's metadata wording (`"Accessory Information"`).
    public let name: String
    /// The characteristic types every instance must have, as the preferred source lists them.
    public let requiredCharacteristics: [HAPUUID]
    /// The characteristic types an instance may add, as the preferred source lists them.
    public let optionalCharacteristics: [HAPUUID]
    /// The characteristic types other sources require or allow on top of those lists.
    public let addedByOtherSources: [HAPUUID]
    /// The required characteristic types some source does not require.
    public let notRequiredByEverySource: [HAPUUID]
    /// The first iOS release with this type (`"iOS 14"`), when known.
    public let introduced: String?

    public init(
        type: HAPUUID, name: String, requiredCharacteristics: [HAPUUID], optionalCharacteristics: [HAPUUID],
        addedByOtherSources: [HAPUUID] = [], notRequiredByEverySource: [HAPUUID] = [], introduced: String?
    ) {
        self.type = type
        self.name = name
        self.requiredCharacteristics = requiredCharacteristics
        self.optionalCharacteristics = optionalCharacteristics
        self.addedByOtherSources = addedByOtherSources
        self.notRequiredByEverySource = notRequiredByEverySource
        self.introduced = introduced
    }

    /// HAP: Service Signature, which ADK attaches to any service with service properties
    /// (ADK `HAP.h`, `HAPService.properties`; read over BLE and Thread only).
    public static let serviceSignature = HAPUUID(appleDefined: 0xA5)

    /// The characteristic types every source requires: what a service must have for no source to
    /// call it incomplete.
    public var requiredByEverySource: [HAPUUID] {
        requiredCharacteristics.filter { !notRequiredByEverySource.contains($0) }
    }

    /// Whether some source lets this service hold a characteristic of `type` (Service Signature
    /// on any service).
    public func allows(_ type: HAPUUID) -> Bool {
        type == Self.serviceSignature || requiredCharacteristics.contains(type) || optionalCharacteristics.contains(type)
            || addedByOtherSources.contains(type)
    }
}
