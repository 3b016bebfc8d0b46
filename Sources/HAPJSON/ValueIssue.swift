import HAPCatalog

/// Where a constraint on a value comes from, which decides how much breaking it matters.
public enum ConstraintSource: String, Hashable, Sendable, CustomStringConvertible {
    /// The characteristic's own metadata in the accessory database: the accessory broke its word.
    case declared
    /// The catalogue's metadata for an Apple type the database left unconstrained. Sources
    /// disagree on some of these (HAP quirk: Color Temperature 50–400 vs 140–500), so breaking
    /// one is a warning.
    case catalog
    /// A HAP default: `maxLen` 64 for strings, `maxDataLen` 2 097 152 for data (HAP-NodeJS).
    case protocolDefault
    /// The step a vendor declares for a read-only characteristic of its own type: no write is
    /// ever checked against it and no controller has a definition to show it by, so an off-step
    /// reading is a note.
    case vendorReadOnly

    public var description: String {
        switch self {
        case .declared: "declared"
        case .catalog: "catalogue"
        case .protocolDefault: "HAP default"
        case .vendorReadOnly: "vendor's read-only"
        }
    }
}

/// What is wrong with one characteristic value.
public enum ValueIssue: Hashable, Sendable, CustomStringConvertible {
    /// The JSON does not have the kind the format needs: a string for a `bool`, `1.5` for a `uint8`.
    case wrongFormat(expected: CharacteristicFormat, found: String)
    /// A whole number outside what its integer format holds: `300` for a `uint8`.
    case outsideFormatRange(CharacteristicFormat)
    /// A whole number written with a fraction or exponent for an integer format (`50.0`); accepted.
    case integerWithFraction
    /// A `tlv8` or `data` value that is not base64.
    case invalidBase64
    /// A `tlv8` or `data` value of a hex-encoded dump that is not hex.
    case invalidHex
    case belowMinimum(minimum: Double, ConstraintSource)
    case aboveMaximum(maximum: Double, ConstraintSource)
    /// Not a whole number of steps above the minimum.
    case offStep(step: Double, base: Double, ConstraintSource)
    /// Neither one of the valid values nor inside a valid range.
    case notInValidValues(ConstraintSource)
    /// A string (UTF-8 bytes) or data value longer than its maximum.
    case tooLong(length: Int, maximum: Int, ConstraintSource)

    /// The stable code the audit reports.
    public var code: HAPJSONDiagnostic.Code {
        switch self {
        case .wrongFormat, .outsideFormatRange: .valueWrongFormat
        case .integerWithFraction: .valueIntegerWithFraction
        case .invalidBase64: .valueInvalidBase64
        case .invalidHex: .valueInvalidHex
        case .belowMinimum, .aboveMaximum: .valueOutOfBounds
        case .offStep: .valueOffStep
        case .notInValidValues: .valueNotInValidValues
        case .tooLong: .valueTooLong
        }
    }

    public var severity: HAPJSONDiagnostic.Severity {
        switch self {
        case .wrongFormat, .outsideFormatRange, .invalidBase64, .invalidHex: .error
        case .integerWithFraction: .note
        case .belowMinimum(_, let source), .aboveMaximum(_, let source), .notInValidValues(let source),
             .tooLong(_, _, let source):
            source == .declared ? .error : .warning
        // ADK rejects off-step writes beyond a tenth of a step (ValueConstraints) and rounds its
        // own reads to the step; controllers display off-step readings, so they matter less.
        case .offStep(_, _, let source):
            source == .declared ? .warning : .note
        }
    }

    public var description: String {
        switch self {
        case .wrongFormat(let format, let found): "a \(found) where the format \(format) needs another kind of value"
        case .outsideFormatRange(let format): "outside the range of \(format)"
        case .integerWithFraction: "an integer written with a fraction or exponent"
        case .invalidBase64: "not valid base64"
        case .invalidHex: "not valid hex, as this dump writes data values"
        case .belowMinimum(let minimum, let source): "below the \(source) minimum \(minimum)"
        case .aboveMaximum(let maximum, let source): "above the \(source) maximum \(maximum)"
        case .offStep(let step, let base, let source): "not a multiple of the \(source) step \(step) above \(base)"
        case .notInValidValues(let source): "not one of the \(source) valid values"
        case .tooLong(let length, let maximum, let source): "\(length) bytes, longer than the \(source) maximum \(maximum)"
        }
    }
}
