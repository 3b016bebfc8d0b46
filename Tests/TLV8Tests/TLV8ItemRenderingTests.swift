import Testing
@testable import TLV8

@Suite struct TLV8ItemRenderingTests {
    static func rendered(_ bytes: [UInt8]) -> [String] {
        body(bytes).items.map { "\($0.fieldName)=\($0.displayValue)" }
    }

    @Test func theCorpusPairSetupM2RendersAsReportsShowIt() throws {
        let items = try decodeStrictly(try Fixture.pairSetupM2.bytes).items
        #expect(items.map(\.fieldName) == ["state", "salt", "publicKey"])
        #expect(items.map(\.displayValue) == ["M2", "16 bytes d85b…df29", "384 bytes fe47…fde8"])
    }

    @Test func namedValuesShowTheirNameAndNumber() {
        let bytes = tlv(.method, [1]) + tlv(.error, [2]) + tlv(.flags, [0x10, 0, 0, 0x01]) + tlv(.permissions, [1])
            + tlv(.retryDelay, [0x1E]) + tlv(.identifier, Array("11:22:33:44:55:66".utf8)) + tlv(.separator, [])
        #expect(Self.rendered(bytes) == [
            "method=PairSetupWithAuth (1)", "error=Authentication (2)", "flags=Transient | Split (0x01000010)",
            "permissions=Admin (1)", "retryDelay=30 s", #"identifier="11:22:33:44:55:66""#, "separator=—",
        ])
    }

    @Test func valuesThatDoNotFitTheirTypeShowAsBytes() {
        let bytes = tlv(.state, [2, 0]) + tlv(.flags, [1, 2, 3, 4, 5]) + tlv(.state, [9]) + tlv(.identifier, [0xFF])
            + tlv(.separator, [7]) + tlv(TLV8Type(0x2A), [0xAB]) + tlv(.proof, []) + tlv(.salt, ramp(8))
        #expect(Self.rendered(bytes) == [
            "state=2 bytes 0200", "flags=5 bytes 0102030405", "state=undefined (9)", "identifier=1 byte ff",
            "separator=1 byte 07", "type0x2a=1 byte ab", "proof=0 bytes", "salt=8 bytes 0001020304050607",
        ])
    }

    @Test func flagsWithNoBitSetSayNone() {
        #expect(Self.rendered(tlv(.flags, [0])) == ["flags=none (0x00000000)"])
        #expect(Self.rendered(tlv(.flags, [])) == ["flags=0 bytes"])
    }
}
