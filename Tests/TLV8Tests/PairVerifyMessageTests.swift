import Testing
@testable import TLV8

@Suite struct PairVerifyMessageTests {
    static func decode(_ bytes: [UInt8], expecting state: PairingState? = nil) -> DecodedPairingBody<PairVerifyMessage> {
        PairVerifyMessage.decode(body(bytes), expectedState: state)
    }

    @Test func theCorpusM2DecodesToTheAccessorysKeyAndSealedIdentity() throws {
        let bytes = try Fixture.pairVerifyM2.bytes
        let decoded = Self.decode(bytes)
        let items = decoded.body.items
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.content == .m2(.init(publicKey: items[1].value, encryptedData: items[2].value)))
        #expect(decoded.content?.encoded() == bytes)
    }

    @Test func everyStepEncodesAndDecodesBack() {
        let messages: [PairVerifyMessage] = [
            .m1(.init(publicKey: ramp(32))),
            .m1(.init(publicKey: ramp(32), method: .pairResume, sessionID: ramp(8), encryptedData: ramp(16))),
            .m2(.init(publicKey: ramp(32, from: 3), encryptedData: ramp(120))),
            .m3(.init(encryptedData: ramp(120))),
            .m4,
            .error(.init(state: .m4, error: .authentication)),
            .error(.init(state: .m2, error: .authentication)),
        ]
        for message in messages {
            let decoded = Self.decode(message.encoded())
            #expect(decoded.content == message)
            #expect(decoded.diagnostics.isEmpty, "\(message)")
        }
        #expect(PairVerifyMessage.m4.encoded() == hex("06 01 04"))
    }

    @Test func keysMustBe32Bytes() {
        let decoded = Self.decode(hex("06 01 01") + tlv(.publicKey, ramp(31)))
        #expect(decoded.content == .m1(.init(publicKey: ramp(31))))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.wrongLength(.publicKey, length: 31, expected: .exactly(32)), offset: 3),
        ])
    }

    @Test func pairResumeNeedsASessionIDAndATagAndOtherMethodsAreRejected() {
        let resume = Self.decode(hex("06 01 01  00 01 06") + tlv(.publicKey, ramp(32)))
        #expect(resume.content == .m1(.init(publicKey: ramp(32), method: .pairResume)))
        #expect(resume.diagnostics == [
            PairingDiagnostic(.missingItem(.sessionID), offset: 0),
            PairingDiagnostic(.missingItem(.encryptedData), offset: 0),
        ])

        // HomeKitADK accepts no Method here but PairResume, not even PairVerify.
        let explicit = Self.decode(hex("06 01 01  00 01 02") + tlv(.publicKey, ramp(32)) + tlv(.sessionID, ramp(8)))
        #expect(explicit.content == .m1(.init(publicKey: ramp(32), method: .pairVerify)))
        #expect(explicit.diagnostics == [
            PairingDiagnostic(.unexpectedMethod(.pairVerify), offset: 3),
            PairingDiagnostic(.unexpectedItem(.sessionID), offset: 40),
        ])
    }

    @Test func m4CarriesNothingButState() {
        let decoded = Self.decode(hex("06 01 04") + tlv(.encryptedData, ramp(16)))
        #expect(decoded.content == .m4)
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedItem(.encryptedData), offset: 3)])
    }

    @Test func stepsAfterM4AreNotPairVerify() {
        let decoded = Self.decode(hex("06 01 05") + tlv(.encryptedData, ramp(16)))
        #expect(decoded.content == nil)
        #expect(decoded.state == nil)
        #expect(decoded.diagnostics == [PairingDiagnostic(.stateOutsideProcedure(.m5), offset: 0)])
    }
}
