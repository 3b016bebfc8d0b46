import Testing
import WireParsing
@testable import HAPPDU

@Suite("CoAP event payloads")
struct HAPCoAPEventTests {
    func event(_ bytes: [UInt8]) -> Result<HAPCoAPEvent, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPCoAPEvent(parsing: &cursor) }
    }

    @Test("Records of <BHH> and a body, back to back (aiohomekit EventResource.render_put)")
    func records() throws {
        let decoded = try event(hex("00 0900 0300 010101  00 0a00 0000")).get()
        #expect(decoded.records.map(\.instanceID) == [9, 10])
        #expect(decoded.records[0].body == hex("010101") && decoded.records[1].body.isEmpty)
        #expect(decoded.records.map(\.offset) == [0, 8])
        let parameters = try decode(decoded.records[0].body) { (cursor) throws(DecodeError) in try HAPPDUParameters(parsing: &cursor) }.get()
        #expect(parameters.value == [1])
    }

    @Test("Every prefix that cuts a record is truncated")
    func dripFed() {
        let bytes = hex("00 0900 0300 010101")
        for count in 1 ..< bytes.count {
            #expect(event(Array(bytes[..<count])).error == DecodeError(.truncated, layer: .hapPDU, offset: 0, expected: ""))
        }
        #expect(event([]).value?.records.isEmpty == true)
    }
}
