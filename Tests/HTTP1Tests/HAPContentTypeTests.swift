import HTTP1
import Testing

@Suite struct HAPContentTypeTests {
    @Test func hapMediaTypesAreNamedWhateverTheirCaseAndParameters() {
        #expect(HAPContentType(fieldValue: "application/hap+json") == .hapJSON)
        #expect(HAPContentType(fieldValue: "Application/HAP+JSON; charset=utf-8") == .hapJSON)
        #expect(HAPContentType(fieldValue: "application/pairing+tlv8") == .pairingTLV8)
        #expect(HAPContentType(fieldValue: " image/jpeg ") == .jpeg)
        #expect(HAPContentType(fieldValue: "application/octet-stream") == .octetStream)
    }

    @Test func otherMediaTypesAreKeptLowerCasedWithoutParameters() {
        #expect(HAPContentType(fieldValue: "Text/Plain; charset=US-ASCII") == .other("text/plain"))
        #expect(HAPContentType(fieldValue: "application/hap+json2") == .other("application/hap+json2"))
        #expect(HAPContentType(fieldValue: "") == .other(""))
    }

    @Test func theMediaTypeIsWrittenAsHAPWritesIt() {
        #expect(HAPContentType.pairingTLV8.mediaType == "application/pairing+tlv8")
        #expect(HAPContentType.hapJSON.description == "application/hap+json")
        #expect(HAPContentType.other("text/plain").mediaType == "text/plain")
    }
}
