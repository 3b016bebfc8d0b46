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

    /// Checks the database against the rules HAP and HomeKit enforce, in document order. Each
    /// finding has a stable code (`HAPJSONDiagnostic.Code`), a severity, the JSON Pointer and byte
    /// offset of the element concerned, and its aid and iid:
    ///
    /// - `duplicate-aid`; `duplicate-iid` within one accessory (an error between two services or two
    ///   characteristics, a warning between a service and a characteristic, whose shared iid space
    ///   only ADK's samples, HAP-NodeJS and HAP-python confirm);
    /// - `missing-accessory-information`, `duplicate-accessory-information`, and
    ///   `missing-required-characteristic` for the Accessory Information service (`3E`);
    /// - `serial-number-length`, `name-length`, `manufacturer-length`, `model-length`: Accessory
    ///   Information values outside ADK's limits (`AccessoryInformationLimits`);
    /// - `unknown-apple-service-type`, `unknown-apple-characteristic-type`: types in Apple's UUID
    ///   range that no source defines;
    /// - `unknown-perm`, `unknown-format`, `unknown-unit`: strings HAP does not define;
    /// - every `ValueIssue` of every characteristic value (`value-…` codes).
    public func conformanceIssues() -> [HAPJSONDiagnostic] {
        var issues: [HAPJSONDiagnostic] = []
        var firstAccessoryOffsets: [UInt64: Int] = [:]
        for accessory in accessories {
            let accessoryPath = path(of: accessory)
            if let first = firstAccessoryOffsets[accessory.aid] {
                issues.append(HAPJSONDiagnostic(
                    .duplicateAID, .error, path: accessoryPath, offset: accessory.offset,
                    message: "aid \(accessory.aid) was already used by the accessory at byte \(first)", aid: accessory.aid))
            } else {
                firstAccessoryOffsets[accessory.aid] = accessory.offset
            }
            checkAccessory(accessory, path: accessoryPath, into: &issues)
        }
        return issues.inDocumentOrder
    }

    private func checkAccessory(_ accessory: HAPAccessory, path accessoryPath: String, into issues: inout [HAPJSONDiagnostic]) {
        let aid = accessory.aid
        // Services and characteristics of one accessory share one iid space (ADK samples; HAP-NodeJS
        // and HAP-python allocate both from one counter). Only the clash within one kind is
        // confirmed by more than one source, so a clash across kinds is a warning.
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
                issues.append(HAPJSONDiagnostic(
                    .duplicateIID, .warning, path: path, offset: offset,
                    message: "\(what) iid \(iid) was already used by a \(isService ? "characteristic" : "service") of this "
                        + "accessory at byte \(first); services and characteristics share one iid space",
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
            }
            for characteristic in service.characteristics {
                let characteristicPath = path(of: characteristic, in: service, of: accessory)
                checkIID(characteristic.iid, offset: characteristic.offset, path: characteristicPath, isService: false)
                checkCharacteristic(characteristic, path: characteristicPath, aid: aid, into: &issues)
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
                .missingRequiredCharacteristic, .error, path: path, offset: service.offset,
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

    private func checkCharacteristic(
        _ characteristic: HAPCharacteristic, path: String, aid: UInt64, into issues: inout [HAPJSONDiagnostic]
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
        if let format = characteristic.unrecognizedFormat {
            add(.unknownFormat, .error, "\(label) has format \"\(format)\", which HAP does not define")
        }
        if let unit = characteristic.unrecognizedUnit {
            add(.unknownUnit, .warning, "\(label) has unit \"\(unit)\", which HAP does not define")
        }
        if let value = characteristic.jsonValue {
            for issue in characteristic.valueIssues {
                issues.append(HAPJSONDiagnostic(
                    issue.code, issue.severity, path: JSONPointer.appending("value", to: path), offset: value.offset,
                    message: "\(label) value \(value.abbreviatedDescription) is \(issue)", aid: aid, iid: iid))
            }
        }
    }
}
