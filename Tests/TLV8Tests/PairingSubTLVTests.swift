import Testing
@testable import TLV8

@Suite struct PairingSubTLVTests {
    static func decode(_ bytes: [UInt8], for context: PairingSubTLV.Context) -> DecodedPairingBody<PairingSubTLV> {
        PairingSubTLV.decode(body(bytes), for: context)
    }

    @Test func eachContextDecodesWhatItsMessageSeals() {
        let accessory = PairingIdentifier("11:22:33:44:55:66")
        let cases: [(PairingSubTLV.Context, PairingSubTLV)] = [
            (.pairSetupM4, .init(signature: ramp(128), certificate: ramp(600))),
            (.pairSetupM5, .init(identifier: PairingIdentifier("0E7F2D8B-0B8D-4C8F-9C5B-5A7A9B3C1D2E"),
                                 publicKey: ramp(32), signature: ramp(64))),
            (.pairSetupM6, .init(identifier: accessory, publicKey: ramp(32), signature: ramp(64))),
            (.pairVerifyM2, .init(identifier: accessory, signature: ramp(64))),
            (.pairVerifyM3, .init(identifier: PairingIdentifier("C"), signature: ramp(64))),
        ]
        for (context, subTLV) in cases {
            let decoded = Self.decode(subTLV.encoded(), for: context)
            #expect(decoded.content == subTLV)
            #expect(decoded.state == nil)
            #expect(decoded.diagnostics.isEmpty, "\(context)")
        }
    }

    @Test func theLongTermKeyBelongsOnlyToPairSetup() {
        let bytes = tlv(.identifier, Array("11:22:33:44:55:66".utf8)) + tlv(.publicKey, ramp(32)) + tlv(.signature, ramp(64))
        let decoded = Self.decode(bytes, for: .pairVerifyM2)
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedItem(.publicKey), offset: 19)])
    }

    @Test func missingAndMisSizedItemsAreNoted() {
        let decoded = Self.decode(tlv(.publicKey, ramp(32)) + tlv(.signature, ramp(63)), for: .pairSetupM5)
        #expect(decoded.content == PairingSubTLV(publicKey: ramp(32), signature: ramp(63)))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.missingItem(.identifier), offset: 0),
            PairingDiagnostic(.wrongLength(.signature, length: 63, expected: .exactly(64)), offset: 34),
        ])
    }

    @Test func subTLVsCarryNoState() {
        let decoded = Self.decode(hex("06 01 05") + tlv(.signature, ramp(8)) + tlv(.certificate, ramp(8)), for: .pairSetupM4)
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedItem(.state), offset: 0)])
    }
}
