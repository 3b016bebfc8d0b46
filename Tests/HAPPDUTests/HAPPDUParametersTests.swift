import Testing
import TLV8
import WireParsing
@testable import HAPPDU

@Suite("PDU body parameters")
struct HAPPDUParametersTests {
    func parameters(_ bytes: [UInt8]) -> Result<HAPPDUParameters, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPPDUParameters(parsing: &cursor) }
    }

    @Test("A pair-setup M1 written over GATT: the pairing TLV8 is the HAP-Param-Value, with Return-Response")
    func pairSetupWrite() throws {
        var pairing = TLV8Writer()
        pairing.append(.state, integer: 1)
        pairing.append(.method, integer: 0)
        let decoded = try parameters(tlv(0x01, pairing.bytes) + tlv(0x09, [0x01])).get()
        #expect(decoded.value == pairing.bytes && decoded.returnResponse == true)
        var cursor = ByteCursor(decoded.value!.span.bytes, layer: .tlv8)
        let body = try TLV8Body(parsing: &cursor)
        #expect(body.first(.state)?.value == [1])
    }

    @Test("A timed write: value, TTL and origin; other items kept")
    func timedWrite() throws {
        let decoded = try parameters(tlv(0x01, [0x01]) + tlv(0x08, [0x32]) + tlv(0x03, [0x01]) + tlv(0x02, hex("aabb")) + tlv(0x40, [])).get()
        #expect(decoded == HAPPDUParameters(
            value: [1], additionalAuthorizationData: hex("aabb"), origin: 1, ttl: 50, returnResponse: nil,
            otherItems: decoded.otherItems))
        #expect(decoded.otherItems.map(\.type.rawValue) == [0x40])
    }

    @Test("One-byte fields of another size are malformed")
    func wrongSizes() {
        #expect(parameters(tlv(0x08, [1, 2])).error?.code == .malformed)
        #expect(parameters(tlv(0x09, [])).error?.code == .malformed)
    }
}
