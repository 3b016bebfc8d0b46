import HAPCore
import HAPJSON
import HAPPDU
import Testing

@Suite("Reading a HAP PDU status as a HAP status")
struct PDUStatusReadingTests {
    @Test("Success is no status, as a /characteristics entry without one")
    func success() {
        #expect(HAPStatus(pduStatus: .success) == nil)
    }

    @Test("Each HAP-BLE status reads as the HAP-over-IP status it amounts to",
          arguments: [(HAPPDUStatus.maxProcedures, HAPStatus.resourceBusy), (.insufficientAuthorization, .insufficientAuthorization),
                      (.invalidInstanceID, .resourceDoesNotExist), (.insufficientAuthentication, .insufficientPrivileges),
                      (.invalidRequest, .invalidValue)])
    func known(pduStatus: HAPPDUStatus, status: HAPStatus) {
        #expect(HAPStatus(pduStatus: pduStatus) == status)
    }

    @Test("Unsupported-PDU and codes HAP does not define read as 'unable to perform operation'", arguments: [UInt8(1), 7, 0x80, 0xFF])
    func unsupported(code: UInt8) {
        #expect(HAPStatus(pduStatus: HAPPDUStatus(rawValue: code)) == .unableToCommunicate)
    }
}
