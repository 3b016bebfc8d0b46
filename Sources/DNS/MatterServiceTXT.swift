/// The TXT record of a Matter service decoded to meaning (Matter Core §4.3; key names,
/// maximum lengths and number parsing as in connectedhomeip `src/lib/dnssd/TxtFields.h`,
/// `TxtFields.cpp` and `Advertiser.h`).
///
/// Keys match ignoring case, as the SDK matches them. Each key becomes a typed value and a
/// one-line explanation in `fields`; a missing or malformed key becomes a `MatterDiagnostic`
/// with the offset of its string. A malformed value leaves its typed property nil.
public struct MatterServiceTXT: Sendable, Hashable {
    public var role: MatterServiceRole
    /// `D`: the 12-bit long discriminator.
    public var longDiscriminator: UInt16?
    /// `VP`: the vendor ID, before the `+`.
    public var vendorID: UInt16?
    /// `VP`: the product ID, after the `+` when present.
    public var productID: UInt16?
    /// `CM`.
    public var commissioningMode: CommissioningMode?
    /// `DT`: the primary device type.
    public var deviceType: UInt32?
    /// `DN`: the user-visible device name.
    public var deviceName: String?
    /// `RI`: the rotating device identifier, decoded from hex.
    public var rotatingID: [UInt8]?
    /// `PH`.
    public var pairingHint: MatterPairingHint?
    /// `PI`: the N or custom text the pairing hint refers to.
    public var pairingInstruction: String?
    /// `CP`: the commissioner can show a passcode for user-directed commissioning.
    public var commissionerPasscode: Bool?
    /// `JF`.
    public var jointFabricMode: MatterJointFabricMode?
    /// `SII`: the MRP retransmission interval while the node is idle, in milliseconds.
    public var sessionIdleInterval: UInt32?
    /// `SAI`: the MRP retransmission interval while the node is active, in milliseconds.
    public var sessionActiveInterval: UInt32?
    /// `SAT`: how long the node stays active after network activity, in milliseconds.
    public var sessionActiveThreshold: UInt16?
    /// `T`.
    public var tcpSupport: MatterTCPSupport?
    /// `ICD`: true when an intermittently connected device operates as a long idle time (LIT)
    /// device, false as a short idle time (SIT) one.
    public var isLongIdleTimeICD: Bool?
    /// Every key in the order sent, with its meaning.
    public var fields: [TXTFieldExplanation]
    public var diagnostics: [MatterDiagnostic]

    /// The `CM` key (connectedhomeip `CommissioningMode`).
    public enum CommissioningMode: UInt8, Sendable, Hashable, CustomStringConvertible {
        case disabled = 0
        /// Opened with the onboarding passcode printed on the device.
        case basic = 1
        /// Opened by an administrator with a temporary passcode (OpenCommissioningWindow).
        case enhanced = 2

        public var description: String {
            switch self {
            case .disabled: "not in commissioning mode"
            case .basic: "basic commissioning mode: commission with the onboarding passcode on the device"
            case .enhanced: "enhanced commissioning mode: an administrator opened a window with a temporary passcode"
            }
        }
    }

    /// The keys Matter defines (connectedhomeip `TxtFieldKey`).
    enum Key: String, CaseIterable {
        case longDiscriminator = "D"
        case vendorProduct = "VP"
        case commissioningMode = "CM"
        case deviceType = "DT"
        case deviceName = "DN"
        case rotatingID = "RI"
        case pairingInstruction = "PI"
        case pairingHint = "PH"
        case commissionerPasscode = "CP"
        case jointFabricMode = "JF"
        case sessionIdleInterval = "SII"
        case sessionActiveInterval = "SAI"
        case sessionActiveThreshold = "SAT"
        case tcpSupport = "T"
        case longIdleTimeICD = "ICD"

        /// The SDK's maximum value length in bytes (`TxtFields.h`; `JF` holds a byte).
        var maximumLength: Int {
            switch self {
            case .longDiscriminator, .sessionActiveThreshold: 5
            case .vendorProduct: 11
            case .commissioningMode, .commissionerPasscode, .tcpSupport, .longIdleTimeICD: 1
            case .deviceType, .pairingHint: 10
            case .deviceName: 32
            case .rotatingID: 100
            case .pairingInstruction: 128
            case .jointFabricMode: 3
            case .sessionIdleInterval, .sessionActiveInterval: 7
            }
        }

        /// Only commissionable and commissioner advertisements carry the key
        /// (`TxtKeyUse::kCommission`); the others are common to every role.
        var isCommissioningKey: Bool {
            switch self {
            case .sessionIdleInterval, .sessionActiveInterval, .sessionActiveThreshold, .tcpSupport, .longIdleTimeICD: false
            default: true
            }
        }
    }

    /// MRP intervals are capped at one hour (`kMaxRetryInterval`).
    public static let maxRetryInterval: UInt64 = 3_600_000

    public init(_ txt: ServiceTXT, role: MatterServiceRole) {
        self.role = role
        fields = []
        fields.reserveCapacity(txt.entries.count)
        diagnostics = []
        var pairingHintOffset: Int?
        for entry in txt.entries {
            guard let key = Key(rawValue: entry.key.uppercased()) else {
                report(entry, .unknownKey(entry.key))
                explain(entry, "not a Matter key")
                continue
            }
            if key == .pairingHint { pairingHintOffset = entry.offset }
            if role == .operational, key.isCommissioningKey {
                report(entry, .keyNotForRole(key: entry.key, role: role))
            }
            guard let value = entry.value, !value.isEmpty else {
                report(entry, .missingValue(entry.key))
                explain(entry, "no value")
                continue
            }
            if value.count > key.maximumLength {
                report(entry, .valueTooLong(key: entry.key, length: value.count, maximum: key.maximumLength))
            }
            decode(entry, key: key, value: value)
        }
        if role == .commissionable, !txt.contains(Key.longDiscriminator.rawValue) {
            diagnostics.append(MatterDiagnostic(offset: nil, kind: .missingKey(Key.longDiscriminator.rawValue)))
        }
        if let pairingHint, !pairingHint.isDisjoint(with: .needingInstruction), pairingInstruction == nil {
            diagnostics.append(
                MatterDiagnostic(offset: pairingHintOffset, kind: .pairingInstructionMissing(hint: pairingHint.rawValue)))
        }
    }

    private mutating func decode(_ entry: ServiceTXT.Entry, key: Key, value: [UInt8]) {
        switch key {
        case .longDiscriminator:
            guard let number = decimal(entry, value, maximum: 4095) else { return }
            longDiscriminator = UInt16(number)
            explain(entry, "long discriminator \(number) (short discriminator \(number >> 8)): "
                + "matches the discriminator in the device's setup code")
        case .vendorProduct:
            decodeVendorProduct(entry, value)
        case .commissioningMode:
            guard let number = decimal(entry, value, maximum: .max) else { return }
            guard let mode = UInt8(exactly: number).flatMap(CommissioningMode.init(rawValue:)) else {
                report(entry, .unknownValue(key: entry.key, value: entry.valueText ?? ""))
                explain(entry, "commissioning mode \(number): not defined")
                return
            }
            commissioningMode = mode
            explain(entry, mode.description)
        case .deviceType:
            guard let number = decimal(entry, value, maximum: 0xFFFF_FFFF) else { return }
            deviceType = UInt32(number)
            explain(entry, "primary device type \(number) (\(Self.hex4(number)))")
        case .deviceName:
            deviceName = entry.valueText
            explain(entry, "device name")
        case .rotatingID:
            guard let bytes = ASCIIText.hexBytes(value) else {
                report(entry, .rotatingIDNotHex(entry.valueText ?? ""))
                explain(entry, "rotating device ID, not hex")
                return
            }
            rotatingID = bytes
            explain(entry, "rotating device ID (\(bytes.count) bytes): lets the vendor recognise the device without a stable identifier")
        case .pairingHint:
            if let hint: MatterPairingHint = flags(entry, value, "pairing hint", ifNone: "no hint") { pairingHint = hint }
        case .pairingInstruction:
            pairingInstruction = entry.valueText
            explain(entry, "pairing instruction: the N or custom text the pairing hint refers to")
        case .commissionerPasscode:
            guard let flag = boolean(entry, value) else { return }
            commissionerPasscode = flag
            explain(entry, flag ? "the commissioner can show a passcode for user-directed commissioning"
                : "the commissioner cannot show a passcode")
        case .jointFabricMode:
            if let mode: MatterJointFabricMode = flags(entry, value, "joint fabric mode", ifNone: "no joint fabric role") {
                jointFabricMode = mode
            }
        case .sessionIdleInterval:
            guard let number = decimal(entry, value, maximum: Self.maxRetryInterval) else { return }
            sessionIdleInterval = UInt32(number)
            explain(entry, "session idle interval \(number) ms: MRP retransmission interval while the node is idle")
        case .sessionActiveInterval:
            guard let number = decimal(entry, value, maximum: Self.maxRetryInterval) else { return }
            sessionActiveInterval = UInt32(number)
            explain(entry, "session active interval \(number) ms: MRP retransmission interval while the node is active")
        case .sessionActiveThreshold:
            guard let number = decimal(entry, value, maximum: 0xFFFF) else { return }
            sessionActiveThreshold = UInt16(number)
            explain(entry, "session active threshold \(number) ms: how long the node stays active after network activity")
        case .tcpSupport:
            if let support: MatterTCPSupport = flags(entry, value, "TCP support", ifNone: "MRP over UDP only") { tcpSupport = support }
        case .longIdleTimeICD:
            guard let flag = boolean(entry, value) else { return }
            isLongIdleTimeICD = flag
            explain(entry, flag
                ? "intermittently connected device operating as long idle time (LIT): it may sleep for long periods"
                : "intermittently connected device operating as short idle time (SIT)")
        }
    }

    private mutating func decodeVendorProduct(_ entry: ServiceTXT.Entry, _ value: [UInt8]) {
        let plus = value.firstIndex(of: UInt8(ascii: "+"))
        let vendorDigits = value[..<(plus ?? value.endIndex)]
        let productDigits = plus.map { value[(value.index(after: $0))...] }
        guard let vendor = ASCIIText.decimal(vendorDigits), vendor <= 0xFFFF,
              productDigits.map({ ASCIIText.decimal($0).map { $0 <= 0xFFFF } ?? false }) ?? true
        else {
            report(entry, .vendorProductMalformed(entry.valueText ?? ""))
            explain(entry, "vendor and product, malformed")
            return
        }
        if ASCIIText.hasLeadingZero(vendorDigits) || productDigits.map(ASCIIText.hasLeadingZero) == true {
            report(entry, .leadingZeros(key: entry.key, value: entry.valueText ?? ""))
        }
        vendorID = UInt16(vendor)
        productID = productDigits.flatMap(ASCIIText.decimal).map { UInt16($0) }
        explain(entry, "vendor ID \(Self.hex4(vendor)) (\(vendor))"
            + (productID.map { ", product ID \(Self.hex4(UInt64($0))) (\($0))" } ?? ", no product ID"))
    }

    /// The value as a decimal number up to `maximum`, or nil after reporting it.
    private mutating func decimal(_ entry: ServiceTXT.Entry, _ value: [UInt8], maximum: UInt64) -> UInt64? {
        guard let number = ASCIIText.decimal(value) else {
            report(entry, .notDecimal(key: entry.key, value: entry.valueText ?? ""))
            explain(entry, "not a decimal number")
            return nil
        }
        if ASCIIText.hasLeadingZero(value) {
            report(entry, .leadingZeros(key: entry.key, value: entry.valueText ?? ""))
        }
        guard number <= maximum else {
            report(entry, .outOfRange(key: entry.key, value: number, maximum: maximum))
            explain(entry, "\(number), over the maximum \(maximum)")
            return nil
        }
        return number
    }

    /// A word of flag bits, explained, with the bits Matter does not define reported; nil after
    /// reporting a value that is not one.
    private mutating func flags<Flags: TXTFlags>(_ entry: ServiceTXT.Entry, _ value: [UInt8], _ name: String, ifNone: String) -> Flags? {
        guard let number = decimal(entry, value, maximum: .max) else { return nil }
        let flags = Flags(rawValue: number)
        if flags.undefinedBits != 0 { report(entry, .unknownBits(key: entry.key, bits: flags.undefinedBits)) }
        explain(entry, flags.explanation(name, ifNone: ifNone))
        return flags
    }

    /// `0` or `1`, or nil after reporting it.
    private mutating func boolean(_ entry: ServiceTXT.Entry, _ value: [UInt8]) -> Bool? {
        switch value {
        case [UInt8(ascii: "0")]: return false
        case [UInt8(ascii: "1")]: return true
        default:
            report(entry, .unknownValue(key: entry.key, value: entry.valueText ?? ""))
            explain(entry, "neither 0 nor 1")
            return nil
        }
    }

    private mutating func report(_ entry: ServiceTXT.Entry, _ kind: MatterTXTProblem) {
        diagnostics.append(MatterDiagnostic(offset: entry.offset, kind: kind))
    }

    private mutating func explain(_ entry: ServiceTXT.Entry, _ explanation: String) {
        fields.append(TXTFieldExplanation(key: entry.key, value: entry.valueText, explanation: explanation, offset: entry.offset))
    }

    /// `0xFFF1`: how Matter writes vendor, product and device type IDs.
    static func hex4(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// 16 upper-case hex digits, as Matter writes fabric and node IDs.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
