/// Something worth reporting about a JSON body that did not stop it from being decoded: a duplicate
/// key, a malformed characteristic that was skipped, a value out of bounds.
///
/// Lenient decoders attach these to what they decoded, and the conformance checks return them; the
/// audit reads them. `code` is stable and greppable, `message` is for people.
public struct HAPJSONDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of finding this is. The raw values are stable: reports and audits key on them.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // JSON
        /// An object has two members with the same key; both were kept.
        public static let duplicateKey = Code(rawValue: "duplicate-key")

        // Decoding (the element named was skipped, the rest kept)
        public static let malformedAccessory = Code(rawValue: "malformed-accessory")
        public static let malformedService = Code(rawValue: "malformed-service")
        public static let malformedCharacteristic = Code(rawValue: "malformed-characteristic")
        /// An entry of a `/characteristics` body.
        public static let malformedEntry = Code(rawValue: "malformed-entry")
        /// A HAP field had the wrong JSON type or an impossible value and was ignored.
        public static let invalidField = Code(rawValue: "invalid-field")
        /// A field HAP requires is absent.
        public static let missingField = Code(rawValue: "missing-field")
        /// A key HAP does not define (`stype` from dump tools, vendor extras); ignored.
        public static let nonHAPKey = Code(rawValue: "non-hap-key")
        /// A positive HAP status code (`70402`), normalised to its negative (HAP quirk: MyQ and others).
        public static let positiveStatus = Code(rawValue: "positive-status")
        /// An entry of a 207 Multi-Status body without `status`.
        public static let missingStatus = Code(rawValue: "missing-status")

        // Conformance of an accessory database
        public static let duplicateAID = Code(rawValue: "duplicate-aid")
        /// Two services or characteristics of one accessory share an iid (they share one space).
        public static let duplicateIID = Code(rawValue: "duplicate-iid")
        public static let missingAccessoryInformation = Code(rawValue: "missing-accessory-information")
        public static let duplicateAccessoryInformation = Code(rawValue: "duplicate-accessory-information")
        /// The Accessory Information service lacks a required characteristic.
        public static let incompleteAccessoryInformation = Code(rawValue: "incomplete-accessory-information")
        /// Another service of a catalogue type lacks a characteristic every source requires.
        public static let missingRequiredCharacteristic = Code(rawValue: "missing-required-characteristic")
        /// A catalogue characteristic in a catalogue service that no source lets it hold.
        public static let unexpectedCharacteristic = Code(rawValue: "unexpected-characteristic")
        /// A Name or ConfiguredName with characters HomeKit does not accept.
        public static let invalidName = Code(rawValue: "invalid-name")
        /// `perms` missing or empty.
        public static let invalidPermissions = Code(rawValue: "invalid-perms")
        /// A service with more than one Name characteristic.
        public static let duplicateName = Code(rawValue: "duplicate-name")
        /// A catalogue characteristic's format that no source gives its type.
        public static let formatMismatch = Code(rawValue: "format-mismatch")
        /// A catalogue characteristic's unit that no source gives its type.
        public static let unitMismatch = Code(rawValue: "unit-mismatch")
        /// More accessories, services or characteristics than `HomeKitLimits` allow.
        public static let tooManyAccessories = Code(rawValue: "too-many-accessories")
        public static let tooManyServices = Code(rawValue: "too-many-services")
        public static let tooManyCharacteristics = Code(rawValue: "too-many-characteristics")
        /// Serial Number shorter than 2 or longer than 64 bytes (ADK; HomeKit rejects short ones).
        public static let serialNumberLength = Code(rawValue: "serial-number-length")
        /// Name longer than 64 bytes.
        public static let nameLength = Code(rawValue: "name-length")
        /// Manufacturer longer than 64 bytes.
        public static let manufacturerLength = Code(rawValue: "manufacturer-length")
        /// Model empty or longer than 64 bytes.
        public static let modelLength = Code(rawValue: "model-length")
        /// A service type in Apple's UUID range that no source defines.
        public static let unknownAppleServiceType = Code(rawValue: "unknown-apple-service-type")
        /// A characteristic type in Apple's UUID range that no source defines.
        public static let unknownAppleCharacteristicType = Code(rawValue: "unknown-apple-characteristic-type")
        public static let unknownPermission = Code(rawValue: "unknown-perm")
        public static let unknownFormat = Code(rawValue: "unknown-format")
        public static let unknownUnit = Code(rawValue: "unknown-unit")

        // Values (see `ValueIssue`)
        public static let valueWrongFormat = Code(rawValue: "value-wrong-format")
        public static let valueOutOfBounds = Code(rawValue: "value-out-of-bounds")
        public static let valueOffStep = Code(rawValue: "value-off-step")
        public static let valueNotInValidValues = Code(rawValue: "value-not-in-valid-values")
        public static let valueTooLong = Code(rawValue: "value-too-long")
        public static let valueIntegerWithFraction = Code(rawValue: "value-integer-with-fraction")
        public static let valueInvalidBase64 = Code(rawValue: "value-invalid-base64")
        public static let valueInvalidHex = Code(rawValue: "value-invalid-hex")
    }

    /// How much a finding matters, least first.
    public enum Severity: Int, Comparable, Hashable, Sendable, CustomStringConvertible {
        /// Legal, or a harmless and common quirk, worth knowing.
        case note
        /// Breaks a rule in a way controllers usually tolerate.
        case warning
        /// Breaks a rule HomeKit enforces, or made the decoder drop data.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .note: "note"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    public var code: Code
    public var severity: Severity
    /// Where in the document, as an RFC 6901 JSON Pointer (`/accessories/0/services/2`).
    public var path: String
    /// The absolute byte offset of the value concerned.
    public var offset: Int
    public var message: String
    /// The accessory concerned, when known.
    public var aid: UInt64?
    /// The service or characteristic concerned, when known.
    public var iid: UInt64?

    public init(
        _ code: Code, _ severity: Severity, path: String, offset: Int, message: String,
        aid: UInt64? = nil, iid: UInt64? = nil
    ) {
        self.code = code
        self.severity = severity
        self.path = path
        self.offset = offset
        self.message = message
        self.aid = aid
        self.iid = iid
    }

    /// `warning duplicate-key at byte 17 (/accessories/0): …`.
    public var description: String {
        "\(severity) \(code) at byte \(offset) (\(path.isEmpty ? "/" : path)): \(message)"
    }
}
