/// What the catalogue knows about one characteristic type.
///
/// Constraints are those of the preferred source (ADK, then HAP-NodeJS, then HAP-python, then
/// aiohomekit). Sources disagree on some of them (`sourceDisagreements`), and devices declare their
/// own in the accessory database, so a value outside them deserves a warning, not a rejection.
public struct CharacteristicDefinition: Hashable, Sendable {
    public let type: HAPUUID
    /// The display name, in Apple's metadata wording (`"Current Temperature"`).
    public let name: String
    public let format: CharacteristicFormat
    public let permissions: CharacteristicPermissions
    public let unit: CharacteristicUnit?
    public let minimumValue: Double?
    public let maximumValue: Double?
    public let stepValue: Double?
    /// The longest string value in bytes, where a source states one.
    public let maximumLength: Int?
    /// The values an enumeration may take, each with its name when a source gives one.
    public let validValues: [ValidValue]
    /// The meaning of each bit of a bit-field value.
    public let validBits: [ValidBit]
    /// The first iOS release with this type (`"iOS 14"`), when known.
    public let introduced: String?
    /// Where sources disagree, `field: SOURCE=value; …` with fields separated by ` | `.
    public let sourceDisagreements: String?

    public init(
        type: HAPUUID, name: String, format: CharacteristicFormat, permissions: CharacteristicPermissions,
        unit: CharacteristicUnit?, minimumValue: Double?, maximumValue: Double?, stepValue: Double?,
        maximumLength: Int?, validValues: [ValidValue], validBits: [ValidBit], introduced: String?,
        sourceDisagreements: String?
    ) {
        self.type = type
        self.name = name
        self.format = format
        self.permissions = permissions
        self.unit = unit
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.stepValue = stepValue
        self.maximumLength = maximumLength
        self.validValues = validValues
        self.validBits = validBits
        self.introduced = introduced
        self.sourceDisagreements = sourceDisagreements
    }

    /// One allowed value of an enumeration.
    public struct ValidValue: Hashable, Sendable {
        public let value: Int64
        /// `"SECURED"`; nil where the sources list the value without naming it.
        public let name: String?

        public init(_ value: Int64, _ name: String?) {
            self.value = value
            self.name = name
        }
    }

    /// The meaning of one bit of a bit-field value.
    public struct ValidBit: Hashable, Sendable {
        public let mask: UInt64
        public let name: String

        public init(mask: UInt64, _ name: String) {
            self.mask = mask
            self.name = name
        }
    }

    /// The formats some source gives this type: `format`, and any other in `sourceDisagreements`
    /// (`format: ADK=uint32; NodeJS=int`).
    public var formatsGivenBySources: Set<CharacteristicFormat> {
        Set([format] + disputedValues(of: "format").compactMap { CharacteristicFormat(wireName: $0 == "int32" ? "int" : $0) })
    }

    /// The units some source gives this type; empty when none gives one.
    public var unitsGivenBySources: Set<CharacteristicUnit> {
        Set((unit.map { [$0] } ?? []) + disputedValues(of: "unit").compactMap(CharacteristicUnit.init(wireName:)))
    }

    /// The values sources give `field` in `sourceDisagreements`: `field: SRC=value; SRC=value`
    /// between ` | `.
    private func disputedValues(of field: String) -> [String] {
        guard let disagreements = sourceDisagreements else { return [] }
        for part in disagreements.split(separator: " | ") {
            guard part.hasPrefix(field + ": ") else { continue }
            return part.dropFirst(field.count + 2).split(separator: "; ").compactMap { entry in
                entry.split(separator: "=", maxSplits: 1).last.map(String.init)
            }
        }
        return []
    }

    /// The name of `value` in this enumeration, if it has one.
    public func name(ofValue value: Int64) -> String? {
        validValues.first { $0.value == value }?.name
    }
}
