import HAPJSON
import HAPPDU

extension HAPJSON.HAPStatus {
    /// The HAP-over-IP status a HAP PDU status amounts to, nil for success: hapscope's reading of
    /// the HAP-BLE statuses (HomeKitADK `HAPBLEPDU.h` `HAPBLEPDUStatus`, shared by HAP over CoAP)
    /// in the terms reports and the audit count statuses by.
    public init?(pduStatus: HAPPDUStatus) {
        switch pduStatus {
        case .success: return nil
        case .maxProcedures: self = .resourceBusy
        case .insufficientAuthorization: self = .insufficientAuthorization
        case .invalidInstanceID: self = .resourceDoesNotExist
        case .insufficientAuthentication: self = .insufficientPrivileges
        case .invalidRequest: self = .invalidValue
        default: self = .unableToCommunicate  // Unsupported-PDU and codes HAP does not define
        }
    }
}
