import HAPCatalog

extension AccessoryDatabase {
    /// The lengths ADK allows for Accessory Information strings, in UTF-8 bytes
    /// (HAP: Accessory Information; ADK `HAPAccessoryValidation.c`).
    public enum AccessoryInformationLimits {
        public static let name = 0 ... 64
        public static let manufacturer = 0 ... 64
        public static let model = 1 ... 64
        /// HomeKit rejects serial numbers shorter than 2 (HAP quirk, e.g. homebridge-nut#10).
        public static let serialNumber = 2 ... 64
    }

    /// How many elements HomeKit accepts, each with its source.
    public enum HomeKitLimits {
        /// HAP: "a bridge must not expose more than 150 HAP accessory objects" (quoted in
        /// brutella/hc#206); ADK `HAP.h` `kHAPAccessoryServerMaxBridgedAccessories` = 149 plus the
        /// bridge, asserted by `HAPAccessoryServerStartBridge`.
        public static let accessories = 150
        /// HAP-NodeJS `Accessory.ts` `MAX_SERVICES`.
        public static let servicesPerAccessory = 100
        /// HAP-NodeJS `Service.ts` `MAX_CHARACTERISTICS` ("HAP spec allows a maximum of 100
        /// characteristics per service").
        public static let characteristicsPerService = 100
    }

    /// HAP: Pairing, the service of pair setup and pair verify over Bluetooth LE and Thread.
    static let pairingService = HAPUUID(appleDefined: 0x55)

    /// Whether a format is what a Bluetooth LE or Thread accessory's GATT presentation format
    /// shows for one of `formats`: tlv8 and data share one (0x1B), and aiohomekit's CoAP reader
    /// names every integer format `int` (`coap/structs.py` `data_type_str`).
    static func presentsAlike(_ format: CharacteristicFormat, _ formats: Set<CharacteristicFormat>, over transport: DatabaseTransport) -> Bool {
        guard transport == .bluetoothOrThread else { return false }
        return formats.contains { ($0.isBinary && format.isBinary) || ($0.isInteger && format == .int) }
    }

    /// HAP: Name and ConfiguredName.
    static let nameType = HAPUUID(appleDefined: 0x23)
    static let configuredNameType = HAPUUID(appleDefined: 0xE3)

    /// Checks the database against the rules HAP and HomeKit enforce, in document order. Each
    /// finding has a stable code (`HAPJSONDiagnostic.Code`), a severity, the JSON Pointer and byte
    /// offset of the element concerned, and its aid and iid:
    ///
    /// - `duplicate-aid`; `duplicate-iid` within one accessory (an error between two services or two
    ///   characteristics; between a service and a characteristic a warning for HAP over IP, whose
    ///   one iid space ADK `HAP.h` documents and HAP-NodeJS and HAP-python allocate, and a note for
    ///   a database read over Bluetooth LE or Thread, whose procedures address services and
    ///   characteristics apart and whose certified devices share numbers);
    /// - `missing-accessory-information`, `duplicate-accessory-information`, and
    ///   `incomplete-accessory-information` for the Accessory Information service (`3E`);
    /// - `serial-number-length`, `name-length`, `manufacturer-length`, `model-length`: Accessory
    ///   Information values outside ADK's limits (`AccessoryInformationLimits`);
    /// - against the catalogue: `missing-required-characteristic` (a characteristic every source
    ///   requires), `unexpected-characteristic` (one no source allows in the service; Service
    ///   Signature is allowed everywhere), `format-mismatch` and `unit-mismatch` (a format or unit
    ///   no source gives the type); custom types are left alone;
    /// - `invalid-name` (`NameRule`), `duplicate-name`, `invalid-perms` (an empty list; a missing
    ///   one is found while decoding);
    /// - `too-many-accessories`, `too-many-services`, `too-many-characteristics` (`HomeKitLimits`);
    /// - `unknown-apple-service-type`, `unknown-apple-characteristic-type`: types in Apple's UUID
    ///   range that no source defines;
    /// - `unknown-perm`, `unknown-format`, `unknown-unit`: strings HAP does not define;
    /// - every `ValueIssue` of every characteristic value (`value-…` codes).
    public func conformanceIssues(transport: DatabaseTransport = .ip) -> [HAPJSONDiagnostic] {
        var issues: [HAPJSONDiagnostic] = []
        var firstAccessoryOffsets: [UInt64: Int] = [:]
        if accessories.count > HomeKitLimits.accessories {
            let first = accessories[HomeKitLimits.accessories]
            issues.append(HAPJSONDiagnostic(
                .tooManyAccessories, .error, path: path(of: first), offset: first.offset,
                message: "the database lists \(accessories.count) accessories; HAP allows at most \(HomeKitLimits.accessories) "
                    + "(the bridge and 149 bridged ones), and this is the \(HomeKitLimits.accessories + 1)st",
                aid: first.aid))
        }
        for accessory in accessories {
            let accessoryPath = path(of: accessory)
            if let first = firstAccessoryOffsets[accessory.aid] {
                issues.append(HAPJSONDiagnostic(
                    .duplicateAID, .error, path: accessoryPath, offset: accessory.offset,
                    message: "aid \(accessory.aid) was already used by the accessory at byte \(first)", aid: accessory.aid))
            } else {
                firstAccessoryOffsets[accessory.aid] = accessory.offset
            }
            checkAccessory(accessory, path: accessoryPath, transport: transport, into: &issues)
        }
        return issues.inDocumentOrder
    }

    private func checkAccessory(
        _ accessory: HAPAccessory, path accessoryPath: String, transport: DatabaseTransport, into issues: inout [HAPJSONDiagnostic]
    ) {
        let aid = accessory.aid
        if accessory.services.count > HomeKitLimits.servicesPerAccessory {
            let first = accessory.services[HomeKitLimits.servicesPerAccessory]
            issues.append(HAPJSONDiagnostic(
                .tooManyServices, .warning, path: path(of: first, in: accessory), offset: first.offset,
                message: "accessory \(aid) has \(accessory.services.count) services, more than the "
                    + "\(HomeKitLimits.servicesPerAccessory) HAP-NodeJS accepts; this is service iid \(first.iid)",
                aid: aid, iid: first.iid))
        }
        // Services and characteristics of one accessory share one iid space (ADK HAP.h; HAP-NodeJS and
        // HAP-python allocate both from one counter). A clash within one kind is ambiguous on every
        // transport; across kinds only where one request names both (HAP over IP's aid.iid).
        let crossKindSeverity: HAPJSONDiagnostic.Severity = transport == .ip ? .warning : .note
        var firstServiceIIDs: [UInt64: Int] = [:]
        var firstCharacteristicIIDs: [UInt64: Int] = [:]
        func checkIID(_ iid: UInt64, offset: Int, path: String, isService: Bool) {
            let what = isService ? "service" : "characteristic"
            let (sameKind, otherKind) = isService
                ? (firstServiceIIDs[iid], firstCharacteristicIIDs[iid])
                : (firstCharacteristicIIDs[iid], firstServiceIIDs[iid])
            if let first = sameKind {
                issues.append(HAPJSONDiagnostic(
                    .duplicateIID, .error, path: path, offset: offset,
                    message: "\(what) iid \(iid) was already used by another \(what) of this accessory at byte \(first)",
                    aid: aid, iid: iid))
            } else if let first = otherKind {
                let why = transport == .ip
                    ? "services and characteristics share one iid space"
                    : "over \(transport) services and characteristics are addressed apart, so it is no clash there"
                issues.append(HAPJSONDiagnostic(
                    .duplicateIID, crossKindSeverity, path: path, offset: offset,
                    message: "\(what) iid \(iid) was already used by a \(isService ? "characteristic" : "service") of this "
                        + "accessory at byte \(first); \(why)",
                    aid: aid, iid: iid))
            }
            if isService {
                firstServiceIIDs[iid] = firstServiceIIDs[iid] ?? offset
            } else {
                firstCharacteristicIIDs[iid] = firstCharacteristicIIDs[iid] ?? offset
            }
        }

        var sawAccessoryInformation = false
        for service in accessory.services {
            let servicePath = path(of: service, in: accessory)
            checkIID(service.iid, offset: service.offset, path: servicePath, isService: true)
            if service.type.isAppleDefined, service.definition == nil {
                issues.append(HAPJSONDiagnostic(
                    .unknownAppleServiceType, .warning, path: servicePath, offset: service.offset,
                    message: "service type \(service.type.displayString) is in Apple's range but no source defines it",
                    aid: aid, iid: service.iid))
            }
            if service.type == HAPAccessory.accessoryInformationType {
                if sawAccessoryInformation {
                    issues.append(HAPJSONDiagnostic(
                        .duplicateAccessoryInformation, .error, path: servicePath, offset: service.offset,
                        message: "accessory \(aid) has a second Accessory Information service", aid: aid, iid: service.iid))
                } else {
                    checkAccessoryInformation(service, path: servicePath, aid: aid, accessory: accessory, into: &issues)
                }
                sawAccessoryInformation = true
            } else {
                checkRequiredCharacteristics(service, path: servicePath, aid: aid, into: &issues)
            }
            checkServiceLimits(service, in: accessory, path: servicePath, into: &issues)
            for characteristic in service.characteristics {
                let characteristicPath = path(of: characteristic, in: service, of: accessory)
                checkIID(characteristic.iid, offset: characteristic.offset, path: characteristicPath, isService: false)
                checkCharacteristic(characteristic, in: service, path: characteristicPath, aid: aid, transport: transport, into: &issues)
            }
        }
        if !sawAccessoryInformation {
            issues.append(HAPJSONDiagnostic(
                .missingAccessoryInformation, .error, path: accessoryPath, offset: accessory.offset,
                message: "accessory \(aid) has no Accessory Information service (3E)", aid: aid))
        }
    }

    private func checkAccessoryInformation(
        _ service: HAPService, path: String, aid: UInt64, accessory: HAPAccessory, into issues: inout [HAPJSONDiagnostic]
    ) {
        for required in service.definition?.requiredCharacteristics ?? [] where service.characteristic(ofType: required) == nil {
            let name = HAPCatalog.characteristic(required)?.name ?? required.displayString
            issues.append(HAPJSONDiagnostic(
                .incompleteAccessoryInformation, .error, path: path, offset: service.offset,
                message: "Accessory Information lacks \(name) (\(required.displayString))", aid: aid, iid: service.iid))
        }
        let lengthRules: [(type: UInt32, limits: ClosedRange<Int>, code: HAPJSONDiagnostic.Code)] = [
            (0x23, AccessoryInformationLimits.name, .nameLength),
            (0x20, AccessoryInformationLimits.manufacturer, .manufacturerLength),
            (0x21, AccessoryInformationLimits.model, .modelLength),
            (0x30, AccessoryInformationLimits.serialNumber, .serialNumberLength),
        ]
        for rule in lengthRules {
            let type = HAPUUID(appleDefined: rule.type)
            guard let characteristic = service.characteristic(ofType: type),
                  case .string(let text) = characteristic.value,
                  !rule.limits.contains(text.utf8.count) else { continue }
            issues.append(HAPJSONDiagnostic(
                rule.code, .error, path: self.path(of: characteristic, in: service, of: accessory), offset: characteristic.offset,
                message: "\(characteristic.name ?? type.displayString) \(JSONValue.string(text)) is \(text.utf8.count) bytes; "
                    + "HomeKit accepts \(rule.limits.lowerBound) to \(rule.limits.upperBound)",
                aid: aid, iid: characteristic.iid))
        }
    }

    /// A service of a catalogue type other than Accessory Information: what every source requires.
    private func checkRequiredCharacteristics(_ service: HAPService, path: String, aid: UInt64, into issues: inout [HAPJSONDiagnostic]) {
        guard service.type.isAppleDefined, let definition = service.definition else { return }
        for required in definition.requiredByEverySource where service.characteristic(ofType: required) == nil {
            let name = HAPCatalog.characteristic(required)?.name ?? required.displayString
            issues.append(HAPJSONDiagnostic(
                .missingRequiredCharacteristic, .error, path: path, offset: service.offset,
                message: "\(definition.name) service \(aid).\(service.iid) lacks \(name) (\(required.displayString)), which "
                    + "every source requires of it",
                aid: aid, iid: service.iid))
        }
    }

    private func checkServiceLimits(
        _ service: HAPService, in accessory: HAPAccessory, path: String, into issues: inout [HAPJSONDiagnostic]
    ) {
        let label = service.name ?? service.type.displayString
        if service.characteristics.count > HomeKitLimits.characteristicsPerService {
            let first = service.characteristics[HomeKitLimits.characteristicsPerService]
            issues.append(HAPJSONDiagnostic(
                .tooManyCharacteristics, .warning, path: self.path(of: first, in: service, of: accessory), offset: first.offset,
                message: "service \(accessory.aid).\(service.iid) (\(label)) has \(service.characteristics.count) "
                    + "characteristics, more than the \(HomeKitLimits.characteristicsPerService) HAP-NodeJS accepts; this is "
                    + "characteristic iid \(first.iid)",
                aid: accessory.aid, iid: first.iid))
        }
        let names = service.characteristics.filter { $0.type == Self.nameType }
        if names.count > 1 {
            let second = names[1]
            issues.append(HAPJSONDiagnostic(
                .duplicateName, .warning, path: self.path(of: second, in: service, of: accessory), offset: second.offset,
                message: "service \(accessory.aid).\(service.iid) (\(label)) has \(names.count) Name characteristics "
                    + "(iids \(names.map { String($0.iid) }.joined(separator: ", "))); a service has one name",
                aid: accessory.aid, iid: second.iid))
        }
    }

    private func checkCharacteristic(
        _ characteristic: HAPCharacteristic, in service: HAPService, path: String, aid: UInt64, transport: DatabaseTransport,
        into issues: inout [HAPJSONDiagnostic]
    ) {
        let iid = characteristic.iid
        let label = characteristic.name ?? characteristic.type.displayString
        func add(_ code: HAPJSONDiagnostic.Code, _ severity: HAPJSONDiagnostic.Severity, _ message: String) {
            issues.append(HAPJSONDiagnostic(code, severity, path: path, offset: characteristic.offset, message: message, aid: aid, iid: iid))
        }
        if characteristic.type.isAppleDefined, characteristic.definition == nil {
            add(.unknownAppleCharacteristicType, .warning,
                "characteristic type \(characteristic.type.displayString) is in Apple's range but no source defines it")
        }
        for permission in characteristic.unrecognizedPermissions {
            add(.unknownPermission, .warning, "\(label) has permission \"\(permission)\", which HAP does not define")
        }
        // Over Bluetooth LE and Thread the Pairing service is used without a secured session, and
        // aiohomekit builds perms from the secured-access bits only (coap/structs.py `to_dict`):
        // an empty list there says nothing about the accessory.
        let pairingOverBluetooth = transport == .bluetoothOrThread && service.type == Self.pairingService
        if characteristic.permissions?.isEmpty == true, characteristic.unrecognizedPermissions.isEmpty, !pairingOverBluetooth {
            add(.invalidPermissions, .error, "\(label) has an empty perms list: it can be neither read, written nor subscribed to")
        }
        if let format = characteristic.unrecognizedFormat {
            add(.unknownFormat, .error, "\(label) has format \"\(format)\", which HAP does not define")
        }
        if let unit = characteristic.unrecognizedUnit {
            add(.unknownUnit, .warning, "\(label) has unit \"\(unit)\", which HAP does not define")
        }
        // Custom types are the vendor's to define, even those the catalogue lists (ADK's own).
        if characteristic.type.isAppleDefined, let definition = characteristic.definition {
            checkAgainstCatalogue(characteristic, definition, in: service, label: label, transport: transport, add: add)
        }
        if (characteristic.type == Self.nameType || characteristic.type == Self.configuredNameType),
           case .string(let name) = characteristic.value, let problem = NameRule.problem(with: name) {
            add(.invalidName, .warning, "\(label) \(JSONValue.string(name)) \(problem)")
        }
        if let value = characteristic.jsonValue {
            for issue in characteristic.valueIssues {
                issues.append(HAPJSONDiagnostic(
                    issue.code, issue.severity, path: JSONPointer.appending("value", to: path), offset: value.offset,
                    message: "\(label) value \(value.abbreviatedDescription) is \(issue)", aid: aid, iid: iid))
            }
        }
    }

    /// A characteristic of a type the catalogue defines: the service may hold it, and its format
    /// and unit are ones some source gives the type.
    private func checkAgainstCatalogue(
        _ characteristic: HAPCharacteristic, _ definition: CharacteristicDefinition, in service: HAPService, label: String,
        transport: DatabaseTransport, add: (HAPJSONDiagnostic.Code, HAPJSONDiagnostic.Severity, String) -> Void
    ) {
        if service.type.isAppleDefined, let serviceDefinition = service.definition, !serviceDefinition.allows(characteristic.type) {
            add(.unexpectedCharacteristic, .warning,
                "\(label) (\(characteristic.type.displayString)) sits in service iid \(service.iid) (\(serviceDefinition.name)), "
                    + "which no source lets hold it")
        }
        if let format = characteristic.format {
            let formats = definition.formatsGivenBySources
            if !formats.contains(format), !Self.presentsAlike(format, formats, over: transport) {
                add(.formatMismatch, .warning,
                    "\(label) has format \(format.wireName); the sources give \(formats.map(\.wireName).sorted().joined(separator: " or "))")
            }
        }
        if let unit = characteristic.unit {
            let units = definition.unitsGivenBySources
            if !units.isEmpty, !units.contains(unit) {
                add(.unitMismatch, .warning,
                    "\(label) has unit \(unit.wireName); the sources give \(units.map(\.wireName).sorted().joined(separator: " or "))")
            }
        }
    }
}

/// The transport an accessory database was read over, where it decides a rule.
public enum DatabaseTransport: String, Hashable, Sendable, CustomStringConvertible {
    /// `GET /accessories` of HAP over IP, or a dump of it.
    case ip
    /// Built by a controller from the accessory's Bluetooth LE or Thread attribute database.
    case bluetoothOrThread

    public var description: String {
        switch self {
        case .ip: "HAP over IP"
        case .bluetoothOrThread: "Bluetooth LE or Thread"
        }
    }
}

/// The names HomeKit accepts for Name and ConfiguredName: Apple's HomeKit Human Interface
/// Guidelines ("use only alphanumeric, space, and apostrophe characters; start and end with an
/// alphabetic or numeric character; don't include emojis") as HAP-NodeJS checks them
/// (`checkName.ts`, PR #1009), with the punctuation its PR #1119 admits in the middle because the
/// Home app accepts it (& ! . _ : ; ( ) / , - and the typographic apostrophe, issue #1116).
public enum NameRule {
    /// What is wrong with `name`, or nil when HomeKit accepts it.
    public static func problem(with name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return "is empty" }
        if !isLetterOrDigit(first) || !isLetterOrDigit(last) {
            let at = !isLetterOrDigit(first) ? "starts" : "ends"
            return "\(at) with \(describe(!isLetterOrDigit(first) ? first : last)): a name starts and ends with a letter or digit"
        }
        if let stray = scalars.first(where: { !isLetterOrDigit($0) && !isSpace($0) && !punctuation.contains($0) }) {
            return "holds \(describe(stray)): names hold letters, digits, spaces and ' ’ & ! . _ : ; ( ) / , -"
        }
        return nil
    }

    private static let punctuation = Set("'\u{2019}&!._:;()/,-".unicodeScalars)

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .spaceSeparator
    }

    /// `"#"`, `U+2615 HOT BEVERAGE`.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        let name = scalar.properties.name.map { " " + $0 } ?? ""
        return scalar.isASCII && scalar.value >= 0x20 ? "\"\(Character(scalar))\"" : "U+\(padded)\(name)"
    }
}
