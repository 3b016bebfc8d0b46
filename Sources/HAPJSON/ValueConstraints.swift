import HAPCatalog

/// The bounds a characteristic's values must keep, each with where it comes from.
public struct ValueConstraints: Hashable, Sendable {
    /// One bound and its origin.
    public struct Constraint<Value: Hashable & Sendable>: Hashable, Sendable {
        public var value: Value
        public var source: ConstraintSource

        public init(_ value: Value, _ source: ConstraintSource) {
            self.value = value
            self.source = source
        }
    }

    public var minimumValue: Constraint<Double>?
    public var maximumValue: Constraint<Double>?
    public var minimumStep: Constraint<Double>?
    /// The longest string, in UTF-8 bytes.
    public var maximumLength: Constraint<Int>?
    /// The longest `data` value, in bytes.
    public var maximumDataLength: Constraint<Int>?
    /// Valid values and valid ranges together: a value must be in one or the other (ADK).
    public var validValues: Constraint<[Int64]>?
    public var validValueRanges: Constraint<[ClosedRange<Int64>]>?

    /// How far from a whole number of steps a float may be: ADK accepts a tenth of a step
    /// (`HAPCharacteristic.c` `IS_VALUE_IN_RANGE_WITH_TOLERANCE(value, constraints, 0.1f)`) and
    /// rounds what it reads to the step (`ROUND_VALUE_TO_STEP`). Integers keep exact steps, as in ADK.
    public static let stepTolerance = 0.1

    /// HAP's default `maxLen` for strings; 256 is the most a characteristic may declare.
    public static let defaultMaximumLength = 64
    /// HAP-NodeJS's default `maxDataLen`.
    public static let defaultMaximumDataLength = 2_097_152

    public init(
        minimumValue: Constraint<Double>? = nil, maximumValue: Constraint<Double>? = nil,
        minimumStep: Constraint<Double>? = nil, maximumLength: Constraint<Int>? = nil,
        maximumDataLength: Constraint<Int>? = nil, validValues: Constraint<[Int64]>? = nil,
        validValueRanges: Constraint<[ClosedRange<Int64>]>? = nil
    ) {
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.minimumStep = minimumStep
        self.maximumLength = maximumLength
        self.maximumDataLength = maximumDataLength
        self.validValues = validValues
        self.validValueRanges = validValueRanges
    }

    /// The constraints on a characteristic with this metadata and type: the declared metadata
    /// first; where it declares no numeric constraint at all, the catalogue's for the type (when
    /// both formats are numeric), and for strings the catalogue's length; then HAP's defaults for
    /// string and data lengths.
    ///
    /// A device that declares its own range, step or valid values is checked against those alone:
    /// sources disagree on many catalogue values (Color Temperature 50–400 in ADK, 140–500
    /// elsewhere; PROTOCOL §8 #18), and a device's own metadata is what controllers read.
    public init(metadata: CharacteristicMetadata, type: HAPUUID?) {
        self.init(metadata: metadata, type: type, definition: type.flatMap(HAPCatalog.characteristic))
    }

    /// The same, with the catalogue's definition of `type` looked up by the caller: a database's
    /// characteristic needs it for its name too, and each lookup hashed the type and copied the
    /// definition out of the catalogue (~1,300 instructions).
    init(metadata: CharacteristicMetadata, type: HAPUUID?, definition: CharacteristicDefinition?) {
        self.init()
        minimumValue = metadata.minimumValue.map { Constraint($0.doubleValue, .declared) }
        maximumValue = metadata.maximumValue.map { Constraint($0.doubleValue, .declared) }
        // A vendor's own read-only characteristic: nothing is written against its step.
        let stepSource: ConstraintSource = type.map { !$0.isAppleDefined } == true
            && metadata.permissions.map { !$0.contains(.pairedWrite) } == true ? .vendorReadOnly : .declared
        minimumStep = metadata.minimumStep.map { Constraint($0.doubleValue, stepSource) }
        maximumLength = metadata.maximumLength.map { Constraint($0, .declared) }
        maximumDataLength = metadata.maximumDataLength.map { Constraint($0, .declared) }
        validValues = metadata.validValues.map { Constraint($0, .declared) }
        validValueRanges = metadata.validValueRanges.map { Constraint($0, .declared) }

        let format = metadata.format
        let declaresNumericConstraints = metadata.minimumValue != nil || metadata.maximumValue != nil
            || metadata.minimumStep != nil || metadata.validValues != nil || metadata.validValueRanges != nil
        if let definition {
            if format?.isNumeric ?? false, definition.format.isNumeric, !declaresNumericConstraints {
                minimumValue = minimumValue ?? definition.minimumValue.map { Constraint($0, .catalog) }
                maximumValue = maximumValue ?? definition.maximumValue.map { Constraint($0, .catalog) }
                minimumStep = minimumStep ?? definition.stepValue.map { Constraint($0, .catalog) }
                if validValues == nil, validValueRanges == nil, !definition.validValues.isEmpty {
                    validValues = Constraint(definition.validValues.map(\.value), .catalog)
                }
            }
            if format == .string, definition.format == .string {
                maximumLength = maximumLength ?? definition.maximumLength.map { Constraint($0, .catalog) }
            }
        }
        if format == .string {
            maximumLength = maximumLength ?? Constraint(Self.defaultMaximumLength, .protocolDefault)
        }
        if format == .data {
            maximumDataLength = maximumDataLength ?? Constraint(Self.defaultMaximumDataLength, .protocolDefault)
        }
    }

    // MARK: Checking

    /// What `value` breaks. Integers are compared exactly; floats with a relative tolerance of
    /// one part in a million, so that a `Float` widened to a `Double` (HAP quirk:
    /// `9.999999747e-05` against a minimum of `0.0001`) still counts as equal, and against a step
    /// with ADK's tolerance of a tenth of a step (`stepTolerance`).
    public func check(_ value: CharacteristicValue) -> [ValueIssue] {
        var issues: [ValueIssue] = []
        switch value {
        case .unsignedInteger, .integer, .float:
            checkNumber(value, into: &issues)
        case .string(let string):
            if let maximumLength, string.utf8.count > maximumLength.value {
                issues.append(.tooLong(length: string.utf8.count, maximum: maximumLength.value, maximumLength.source))
            }
        case .bytes(let bytes):
            if let maximumDataLength, bytes.count > maximumDataLength.value {
                issues.append(.tooLong(length: bytes.count, maximum: maximumDataLength.value, maximumDataLength.source))
            }
        case .null, .bool, .untyped:
            break
        }
        return issues
    }

    private func checkNumber(_ value: CharacteristicValue, into issues: inout [ValueIssue]) {
        let number = Number(value)
        if let minimumValue, number.isBelow(minimumValue.value) {
            issues.append(.belowMinimum(minimum: minimumValue.value, minimumValue.source))
        }
        if let maximumValue, number.isAbove(maximumValue.value) {
            issues.append(.aboveMaximum(maximum: maximumValue.value, maximumValue.source))
        }
        if let minimumStep, minimumStep.value > 0 {
            let base = minimumValue?.value ?? 0
            if !number.isWholeSteps(minimumStep.value, above: base) {
                issues.append(.offStep(step: minimumStep.value, base: base, minimumStep.source))
            }
        }
        if validValues != nil || validValueRanges != nil {
            let allowed = number.exactInteger.map { integer in
                (validValues?.value.contains(integer) ?? false)
                    || (validValueRanges?.value.contains { $0.contains(integer) } ?? false)
            } ?? false
            if !allowed {
                issues.append(.notInValidValues(validValues?.source ?? validValueRanges?.source ?? .declared))
            }
        }
    }

    /// A numeric value, compared exactly when it is an integer and the bound is whole.
    private struct Number {
        let exactInteger: Int64?
        let double: Double
        let isFloat: Bool

        init(_ value: CharacteristicValue) {
            switch value {
            case .integer(let integer):
                (exactInteger, double, isFloat) = (integer, Double(integer), false)
            case .unsignedInteger(let integer):
                (exactInteger, double, isFloat) = (Int64(exactly: integer), Double(integer), false)
            default:
                let double = value.numericValue ?? 0
                (exactInteger, self.double, isFloat) = (JSONNumber.exactInt64(double), double, true)
            }
        }

        private func tolerance(against bound: Double) -> Double {
            isFloat ? max(abs(double), abs(bound)) * 1e-6 : 0
        }

        func isBelow(_ bound: Double) -> Bool {
            if !isFloat, let exactInteger, let wholeBound = JSONNumber.exactInt64(bound) {
                return exactInteger < wholeBound
            }
            return double < bound - tolerance(against: bound)
        }

        func isAbove(_ bound: Double) -> Bool {
            if !isFloat, let exactInteger, let wholeBound = JSONNumber.exactInt64(bound) {
                return exactInteger > wholeBound
            }
            return double > bound + tolerance(against: bound)
        }

        /// Whether the value is `base` plus a whole number of `step`s (ADK's step rule).
        func isWholeSteps(_ step: Double, above base: Double) -> Bool {
            if !isFloat, let exactInteger, let wholeStep = JSONNumber.exactInt64(step),
               let wholeBase = JSONNumber.exactInt64(base) {
                let (difference, overflow) = exactInteger.subtractingReportingOverflow(wholeBase)
                if !overflow { return difference % wholeStep == 0 }
            }
            let steps = (double - base) / step
            // The tenth is ADK's; the hair above it absorbs the binary rounding of decimal values.
            let allowance = max(tolerance(against: base) / step, ValueConstraints.stepTolerance + 1e-9)
            // A step finer than the value's own precision cannot be checked.
            guard allowance < 0.5 else { return true }
            return Self.distanceToNearestInteger(steps) <= allowance
        }

        private static func distanceToNearestInteger(_ value: Double) -> Double {
            // Every Double of this size is a whole number; below it, truncation toward zero is exact
            // and needs no libm (see `JSONNumber.exactInt64`).
            guard abs(value) < 0x1p52 else { return 0 }
            let fraction = abs(value - Double(Int64(value)))
            return min(fraction, 1 - fraction)
        }
    }
}
