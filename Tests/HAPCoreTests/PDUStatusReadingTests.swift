import HAPCore
import HAPJSON
import HAPPDU
import Testing

@Suite("Reading a HAP PDU status as a HAP status")
struct PDUStatusReadingTests {
    @Test("Success is no status, as a /characteristics entry without one")
    func success() {
        #expect(HAPStatus(pduStatus: .success, answering: .characteristicRead) == nil)
    }

    @Test("Each HAP-BLE status reads as the HAP-over-IP status it amounts to",
          arguments: [(HAPPDUStatus.maxProcedures, HAPStatus.resourceBusy), (.insufficientAuthorization, .insufficientAuthorization),
                      (.invalidInstanceID, .resourceDoesNotExist), (.insufficientAuthentication, .insufficientPrivileges),
                      (.invalidRequest, .invalidValue)])
    func known(pduStatus: HAPPDUStatus, status: HAPStatus) {
        #expect(HAPStatus(pduStatus: pduStatus, answering: .characteristicRead) == status)
    }

    @Test("Unsupported-PDU answers a procedure the characteristic lacks: a read of a write-only one, a write of a read-only one")
    func unsupportedProcedure() {
        #expect(HAPStatus(pduStatus: .unsupportedPDU, answering: .characteristicRead) == .writeOnlyCharacteristic)
        for write in [HAPOpcode.characteristicWrite, .characteristicTimedWrite, .characteristicExecuteWrite] {
            #expect(HAPStatus(pduStatus: .unsupportedPDU, answering: write) == .readOnlyCharacteristic)
        }
    }

    @Test("Unsupported-PDU of other procedures and codes HAP does not define read as 'unable to perform operation'",
          arguments: [UInt8(1), 7, 0x80, 0xFF])
    func unsupported(code: UInt8) {
        #expect(HAPStatus(pduStatus: HAPPDUStatus(rawValue: code), answering: .subscribe) == .unableToCommunicate)
    }
}
