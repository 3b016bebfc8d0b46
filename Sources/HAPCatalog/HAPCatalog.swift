/// Apple's HomeKit service types, characteristic types and accessory categories.
///
/// The tables are generated from `scripts/catalog/data/*.tsv` by `scripts/catalog/generate.sh`; this
/// file holds the lookups over them.
public enum HAPCatalog {
    /// Every known service type, in table order.
    public static var services: [ServiceDefinition] { serviceTable }

    /// Every known characteristic type, in table order.
    public static var characteristics: [CharacteristicDefinition] { characteristicTable }

    /// The definition of a service type; nil for a type no source defines.
    public static func service(_ type: HAPUUID) -> ServiceDefinition? {
        servicesByType[type]
    }

    /// The definition of a characteristic type; nil for a type no source defines.
    public static func characteristic(_ type: HAPUUID) -> CharacteristicDefinition? {
        characteristicsByType[type]
    }

    /// The category an accessory advertises in its `ci` TXT key; nil when no source defines it.
    public static func categoryName(_ id: Int) -> String? {
        categoryNames[id]
    }

    private static let servicesByType: [HAPUUID: ServiceDefinition] =
        Dictionary(serviceTable.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })

    private static let characteristicsByType: [HAPUUID: CharacteristicDefinition] =
        Dictionary(characteristicTable.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
}
