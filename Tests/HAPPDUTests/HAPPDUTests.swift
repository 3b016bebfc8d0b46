import Testing
import WireParsing
@testable import HAPPDU

@Suite("HAP PDUs")
struct HAPPDUTests {
    @Test("A HAP-BLE read request without a body: aiohomekit `encode_pdu` packs control, opcode, TID, IID")
    func readRequest() throws {
        guard case .request(let request) = try pdu(hex("00 03 2a 1000")).get() else {
            Issue.record("not a request")
            return
        }
        #expect(request.opcode == .characteristicRead && request.transactionID == 0x2A && request.instanceID == 0x10)
        #expect(request.bodyLength == nil && request.body.isEmpty && request.isComplete)
    }

    @Test("A write request with a body: body length then HAP-Param-Value (aiohomekit BLE client)")
    func writeRequest() throws {
        let bytes = hex("00 02 07 1200 0300 01 01 01")
        guard case .request(let request) = try pdu(bytes).get() else {
            Issue.record("not a request")
            return
        }
        #expect(request.opcode == .characteristicWrite && request.bodyLength == 3 && request.body == hex("010101") && request.isComplete)
        #expect(HAPPDU.request(request).encoded == bytes)
    }

    @Test("A response: control 0x02, TID, status, body (aiohomekit `decode_pdu`)")
    func response() throws {
        let bytes = hex("02 2a 00 0300 01 01 00")
        guard case .response(let response) = try pdu(bytes).get() else {
            Issue.record("not a response")
            return
        }
        #expect(response.transactionID == 0x2A && response.status == .success && response.body == hex("010100"))
        #expect(HAPPDU.response(response).encoded == bytes)
        #expect(try pdu(hex("02 2a 04")).get() == .response(HAPPDUResponse(transactionID: 0x2A, status: .invalidInstanceID)))
    }

    @Test("A body longer than the value is a first fragment; its continuation carries control 0x80 and the TID")
    func fragments() throws {
        guard case .request(let first) = try pdu(hex("00 02 07 1200 0800 01 06 aabb")).get() else {
            Issue.record("not a request")
            return
        }
        #expect(first.bodyLength == 8 && first.body == hex("0106aabb") && !first.isComplete)
        let continuation = try pdu(hex("80 07 ccddeeff")).get()
        #expect(continuation == .continuation(HAPPDUContinuation(control: HAPPDUControlField(rawValue: 0x80), transactionID: 7, body: hex("ccddeeff"))))
        #expect(continuation.control.isContinuation && continuation.control.type == .request)
    }

    @Test("Bit 4 of the control field selects 64-bit instance IDs")
    func sixtyFourBitIIDs() throws {
        guard case .request(let request) = try pdu(hex("10 03 01 0100000000000080")).get() else {
            Issue.record("not a request")
            return
        }
        #expect(request.instanceID == 0x8000_0000_0000_0001 && request.control.uses64BitInstanceIDs)
        #expect(HAPPDU.request(request).encoded == hex("10 03 01 0100000000000080"))
    }

    @Test("Reserved bits, an undefined type or a long control field are malformed (HomeKitADK DeserializeControlField)", arguments: [
        0x20, 0x40, 0x04, 0x0E, 0x01,
    ] as [UInt8])
    func badControl(_ control: UInt8) {
        #expect(pdu([control, 0x03, 0x01, 0x10, 0x00]).error == DecodeError(.malformed, layer: .hapPDU, offset: 0, expected: ""))
    }

    @Test("Bytes past the announced body are malformed (HomeKitADK: excess data after PDU)")
    func excessData() {
        let error = pdu(hex("02 01 00 0100 aa bb")).error
        #expect(error?.code == .malformed && error?.offset == 6)
    }

    @Test("Every prefix shorter than the header is truncated; one byte of body length too")
    func dripFed() {
        let bytes = hex("00 02 07 1200 0300 010101")
        for count in 0 ..< 5 {
            #expect(pdu(Array(bytes[..<count])).error == DecodeError(.truncated, layer: .hapPDU, offset: 0, expected: ""))
        }
        #expect(pdu(Array(bytes[..<6])).error?.code == .truncated)
        // Longer prefixes are first fragments.
        for count in 7 ..< bytes.count {
            guard case .request(let request)? = pdu(Array(bytes[..<count])).value else {
                Issue.record("prefix \(count) is not a first fragment")
                continue
            }
            #expect(!request.isComplete && request.body.count == count - 7)
        }
    }

    @Test("CoAP batches: PDUs back to back, each whole (aiohomekit encode_all_pdus / decode_all_pdus)")
    func sequence() throws {
        // Two reads of IIDs 3 and 4 with TIDs 0 and 1, always with a body length.
        let requests = decode(hex("00 03 00 0300 0000  00 03 01 0400 0000")) { (cursor) throws(DecodeError) in
            try HAPPDU.sequence(parsing: &cursor)
        }
        #expect(requests.value?.map(\.transactionID) == [0, 1])
        let responses = decode(hex("02 00 00 0300 010101  02 01 00 0300 010100")) { (cursor) throws(DecodeError) in
            try HAPPDU.sequence(parsing: &cursor)
        }
        #expect(responses.value?.count == 2)
        let cut = decode(hex("02 00 00 0300 0101")) { (cursor) throws(DecodeError) in try HAPPDU.sequence(parsing: &cursor) }
        #expect(cut.error == DecodeError(.truncated, layer: .hapPDU, offset: 0, expected: ""))
        let continuation = decode(hex("80 00 01")) { (cursor) throws(DecodeError) in try HAPPDU.sequence(parsing: &cursor) }
        #expect(continuation.error?.code == .malformed)
        let bare = decode(hex("02 00 00")) { (cursor) throws(DecodeError) in try HAPPDU.sequence(parsing: &cursor) }
        #expect(bare.error?.code == .truncated)
        let many = decode(Array([[UInt8]](repeating: hex("02 00 00 0000"), count: 3).joined())) {
            (cursor) throws(DecodeError) in try HAPPDU.sequence(parsing: &cursor, maximumCount: 2)
        }
        #expect(many.error?.code == .limitExceeded)
    }

    @Test("Opcodes and statuses by name")
    func names() {
        #expect(HAPOpcode.characteristicSignatureRead.description == "HAP-Characteristic-Signature-Read (0x01)")
        #expect(HAPOpcode.databaseRead.name == "Database-Read (CoAP)" && HAPOpcode.subscribe.rawValue == 0x0B)
        #expect(HAPOpcode.serviceSignatureRead.isServiceOperation && !HAPOpcode.characteristicRead.isServiceOperation)
        #expect((0 ... 6).map { HAPPDUStatus(rawValue: $0).isKnown } == Array(repeating: true, count: 7))
        #expect(HAPPDUStatus.insufficientAuthentication.description == "Insufficient Authentication (5)")
        #expect(HAPPDUStatus(rawValue: 9).description == "HAP status 9")
        #expect(HAPPDUControlField(type: .response, isContinuation: true).rawValue == 0x82)
    }
}
