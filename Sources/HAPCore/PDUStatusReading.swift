import HAPJSON

extension HAPJSON.HAPStatus {
    /// The HAP-over-IP status a HAP PDU status amounts to, nil for success: hapscope's reading of
    /// the HAP-BLE statuses (HomeKitADK `HAPBLEPDU.h` `HAPBLEPDUStatus`, shared by HAP over CoAP)
    /// in the terms reports and the audit count statuses by. The PDU status comes as its code:
    /// the HAPPDU module and its enum of PDUs share the name, so its status type cannot be named
    /// here with its module.
    public init?(pduStatusCode code: UInt8) {
        switch code {
        case 0: return nil
        case 2: self = .resourceBusy  // Max-Procedures
        case 3: self = .insufficientAuthorization  // Insufficient Authorization
        case 4: self = .resourceDoesNotExist  // Invalid Instance ID
        case 5: self = .insufficientPrivileges  // Insufficient Authentication
        case 6: self = .invalidValue  // Invalid Request
        default: self = .unableToCommunicate  // Unsupported-PDU and codes HAP does not define
        }
    }
}
