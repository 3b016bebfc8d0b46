import Testing
import WireParsing
@testable import CoAP

@Suite("CoAP codes and the option registry")
struct CoAPRegistryTests {
    @Test("Codes are class.detail with names (RFC 7252 §12.1)")
    func codes() {
        #expect(CoAPCode.notFound.description == "4.04 Not Found")
        #expect(CoAPCode.valid.description == "2.03 Valid")
        #expect(CoAPCode.continue.description == "2.31 Continue")
        #expect(CoAPCode(class: 7, detail: 31).description == "7.31")
        #expect(CoAPCode.post.isRequest && CoAPCode.changed.isResponse && !CoAPCode.empty.isRequest)
    }

    @Test("Registered options: name, format and lengths (RFC 7252 Table 4, RFC 7641, RFC 7959)", arguments: [
        (1, "If-Match"), (3, "Uri-Host"), (4, "ETag"), (5, "If-None-Match"), (6, "Observe"), (7, "Uri-Port"), (8, "Location-Path"),
        (11, "Uri-Path"), (12, "Content-Format"), (14, "Max-Age"), (15, "Uri-Query"), (17, "Accept"), (20, "Location-Query"),
        (23, "Block2"), (27, "Block1"), (28, "Size2"), (35, "Proxy-Uri"), (39, "Proxy-Scheme"), (60, "Size1"),
    ] as [(UInt16, String)])
    func registry(_ number: UInt16, _ name: String) {
        #expect(CoAPOptionNumber(rawValue: number).definition?.name == name)
    }

    @Test("Criticality is the low bit; lengths outside the registry are flagged, not fatal")
    func criticalityAndLengths() {
        #expect(CoAPOptionNumber.uriPath.isCritical && !CoAPOptionNumber.contentFormat.isCritical)
        #expect(CoAPOptionNumber.proxyURI.isUnsafe)
        #expect(CoAPOption(number: .contentFormat, value: [0, 0, 1]).violatesRegisteredLength)
        #expect(!CoAPOption(number: .uriPath, value: []).violatesRegisteredLength)
        #expect(CoAPOption(number: .maxAge, value: [0x01, 0x00]).unsignedValue == 256)
        #expect(CoAPOptionNumber(rawValue: 2048).description == "option 2048")
    }
}
