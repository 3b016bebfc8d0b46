import HAPCore
import HAPJSON
import Testing

@Suite("Reading a HAP PDU status as a HAP status")
struct PDUStatusReadingTests {
    @Test("Success is no status, as a /characteristics entry without one")
    func success() {
        #expect(HAPStatus(pduStatusCode: 0) == nil)
    }

    @Test("Each HAP-BLE status reads as the HAP-over-IP status it amounts to",
          arguments: [(UInt8(2), HAPStatus.resourceBusy), (3, .insufficientAuthorization), (4, .resourceDoesNotExist),
                      (5, .insufficientPrivileges), (6, .invalidValue)])
    func known(code: UInt8, status: HAPStatus) {
        #expect(HAPStatus(pduStatusCode: code) == status)
    }

    @Test("Unsupported-PDU and codes HAP does not define read as 'unable to perform operation'", arguments: [UInt8(1), 7, 0x80, 0xFF])
    func unsupported(code: UInt8) {
        #expect(HAPStatus(pduStatusCode: code) == .unableToCommunicate)
    }
}
