import HAPJSON
import HAPPDU

extension HAPJSON.HAPStatus {
    /// The HAP-over-IP status a HAP PDU status amounts to, nil for success: hapscope's reading of
    /// the HAP-BLE statuses (HomeKitADK `HAPBLEPDU.h` `HAPBLEPDUStatus`, shared by HAP over CoAP)
    /// in the terms reports and the audit count statuses by. Unsupported-PDU answers a procedure
    /// the characteristic does not support (HomeKitADK HAPBLEProcedure.c: a Char-Read of a
    /// characteristic without read, a Char-Write of one without write), so it reads by the request
    /// it answers.
    public init?(pduStatus: HAPPDUStatus, answering opcode: HAPOpcode) {
        switch pduStatus {
        case .success: return nil
        case .unsupportedPDU where opcode == .characteristicRead: self = .writeOnlyCharacteristic
        case .unsupportedPDU where [.characteristicWrite, .characteristicTimedWrite, .characteristicExecuteWrite].contains(opcode):
            self = .readOnlyCharacteristic
        case .maxProcedures: self = .resourceBusy
        case .insufficientAuthorization: self = .insufficientAuthorization
        case .invalidInstanceID: self = .resourceDoesNotExist
        case .insufficientAuthentication: self = .insufficientPrivileges
        case .invalidRequest: self = .invalidValue
        default: self = .unableToCommunicate  // Unsupported-PDU of other procedures and codes HAP does not define
        }
    }
}
