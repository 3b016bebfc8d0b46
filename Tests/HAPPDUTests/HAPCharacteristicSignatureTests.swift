import HAPCatalog
import Testing
import TLV8
import WireParsing
@testable import HAPPDU

@Suite("Characteristic and service signatures")
struct HAPCharacteristicSignatureTests {
    /// A signature read response body as HomeKitADK writes it for On (0x25) of a Lightbulb
    /// (0x43): characteristic type, service IID, service type, properties (pr, pw, ev = 0x00B3
    /// with read/write), presentation format (bool, unitless).
    static let onSignature = tlv(0x04, hapType(0x25)) + tlv(0x07, le16(0x10)) + tlv(0x06, hapType(0x43))
        + tlv(0x0A, le16(0x00B3)) + tlv(0x0C, hex("01 00 0027 01 0000"))

    func signature(_ bytes: [UInt8]) -> Result<HAPCharacteristicSignature, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPCharacteristicSignature(parsing: &cursor) }
    }

    @Test("The signature of On: types, service IID, properties, format")
    func on() throws {
        let decoded = try signature(Self.onSignature).get()
        #expect(decoded.type == HAPUUID(appleDefined: 0x25) && decoded.serviceType == HAPUUID(appleDefined: 0x43))
        #expect(decoded.serviceInstanceID == 0x10 && decoded.instanceID == nil)
        #expect(decoded.properties == [.readable, .writable, .supportsSecureReads, .supportsSecureWrites, .notifiesEventsInConnectedState])
        #expect(decoded.properties?.permissions == ["pr", "pw", "ev"])
        #expect(decoded.presentationFormat?.characteristicFormat == .bool && decoded.presentationFormat?.characteristicUnit == nil)
        #expect(decoded.otherItems.isEmpty)
    }

    @Test("Ranges, step, valid values, user description and unknown items are kept")
    func descriptors() throws {
        let body = tlv(0x0C, hex("04 00 ad27 01 0000")) + tlv(0x0D, hex("00 64")) + tlv(0x0E, hex("01")) + tlv(0x0B, Array("Brightness".utf8))
            + tlv(0x11, hex("00 01 03")) + tlv(0x12, hex("00 01 05 07")) + tlv(0x7F, hex("aa"))
        let decoded = try signature(body).get()
        #expect(decoded.presentationFormat?.characteristicFormat == .uint8 && decoded.presentationFormat?.characteristicUnit == .percentage)
        #expect(decoded.validRange == [0, 100] && decoded.stepValue == [1] && decoded.userDescription == "Brightness")
        #expect(decoded.validValues == [0, 1, 3] && decoded.validValuesRanges == [0 ... 1, 5 ... 7])
        #expect(decoded.otherItems.map(\.type.rawValue) == [0x7F])
    }

    @Test("Fixed-size fields of the wrong size are malformed at their item", arguments: [
        tlv(0x04, hex("25")), tlv(0x0C, hex("01 00 0027 01")), tlv(0x0A, hex("01 02 03")), tlv(0x12, hex("00 01 05")),
        tlv(0x12, hex("05 01")), tlv(0x05, []),
    ])
    func wrongSizes(_ body: [UInt8]) {
        let error = signature(hex("09 01 01") + body).error
        #expect(error == DecodeError(.malformed, layer: .hapPDU, offset: 0, expected: ""))
        #expect(error?.offset == 3)
    }

    @Test("A TLV cut short is a TLV8 truncation")
    func truncatedTLV() {
        #expect(signature(Array(Self.onSignature.dropLast())).error == DecodeError(.truncated, layer: .tlv8, offset: 0, expected: ""))
    }

    @Test("Presentation formats map HAP's GATT format and unit codes (aiohomekit coap/structs.py)", arguments: [
        (0x01, CharacteristicFormat.bool), (0x04, .uint8), (0x06, .uint16), (0x08, .uint32), (0x0A, .uint64), (0x10, .int),
        (0x14, .float), (0x19, .string), (0x1B, .data),
    ] as [(UInt8, CharacteristicFormat)])
    func formats(_ code: UInt8, _ format: CharacteristicFormat) {
        #expect(GATTPresentationFormat(format: code).characteristicFormat == format)
        let encoded = GATTPresentationFormat(format: code, unit: 0x272F).encoded
        let decoded = decode(encoded) { (cursor) throws(DecodeError) in try GATTPresentationFormat(parsing: &cursor) }
        #expect(decoded.value?.characteristicUnit == .celsius && decoded.value?.format == code)
    }

    @Test("A service signature: properties and linked service IIDs")
    func serviceSignature() throws {
        let body = tlv(0x0F, le16(0x0001)) + tlv(0x10, le16(0x20) + le16(0x30))
        let decoded = try decode(body) { (cursor) throws(DecodeError) in try HAPServiceSignature(parsing: &cursor) }.get()
        #expect(decoded == HAPServiceSignature(properties: .primary, linkedServices: [0x20, 0x30]))
        let odd = decode(tlv(0x10, hex("20 00 30"))) { (cursor) throws(DecodeError) in try HAPServiceSignature(parsing: &cursor) }
        #expect(odd.error?.code == .malformed)
    }
}
