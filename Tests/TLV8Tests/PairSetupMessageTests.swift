import Testing
@testable import TLV8

@Suite struct PairSetupMessageTests {
    static func decode(_ bytes: [UInt8], expecting state: PairingState? = nil) -> DecodedPairingBody<PairSetupMessage> {
        PairSetupMessage.decode(body(bytes), expectedState: state)
    }

    @Test func theCorpusM2DecodesToTheAccessorysKeyAndSalt() throws {
        let decoded = Self.decode(try Fixture.pairSetupM2.bytes)
        let items = decoded.body.items
        #expect(decoded.state == .m2)
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.content == .m2(.init(publicKey: items[2].value, salt: items[1].value)))
    }

    @Test func theCorpusM3DecodesToTheControllersKeyAndProof() throws {
        let decoded = Self.decode(try Fixture.pairSetupM3.bytes)
        let items = decoded.body.items
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.content == .m3(.init(publicKey: items[1].value, proof: items[2].value)))
        #expect(decoded.content?.encoded() == (try Fixture.pairSetupM3.bytes))
    }

    @Test func everyStepEncodesAndDecodesBack() {
        let messages: [PairSetupMessage] = [
            .m1(.init(method: .pairSetup)),
            .m1(.init(method: .pairSetupWithAuth, flags: [.transient, .split])),
            .m2(.init(publicKey: ramp(384), salt: ramp(16), flags: .split)),
            .m2(.init(publicKey: ramp(383, from: 1), salt: ramp(16))),
            .m2(.init(publicKey: ramp(384), salt: ramp(16), flags: [])),
            .m3(.init(publicKey: ramp(384, from: 9), proof: ramp(64))),
            .m4(.init(proof: ramp(64))),
            .m4(.init(proof: ramp(64), encryptedData: ramp(1_200))),
            .m5(.init(encryptedData: ramp(154))),
            .m6(.init(encryptedData: ramp(170))),
            .error(.init(state: .m2, error: .unavailable)),
            .error(.init(state: .m4, error: .backoff, retryDelay: 300)),
            .error(.init(state: .m6, error: .authentication)),
        ]
        for message in messages {
            let decoded = Self.decode(message.encoded())
            #expect(decoded.content == message)
            #expect(decoded.state == message.state)
            #expect(decoded.diagnostics.isEmpty, "\(message)")
        }
    }

    @Test func m1IsEncodedAsHAPExamplesShowIt() {
        // PROTOCOL §1.5: Transient|Split Flags are `13 04 10 00 00 01`.
        let message = PairSetupMessage.m1(.init(method: .pairSetup, flags: [.transient, .split]))
        #expect(message.encoded() == hex("06 01 01  00 01 00  13 04 10 00 00 01"))
    }

    /// PROTOCOL §8 #5: some accessories leave State out; iOS tolerates it.
    @Test func aMissingStateIsTakenFromContextAndNoted() {
        let bytes = tlv(.salt, ramp(16)) + tlv(.publicKey, ramp(200))
        let decoded = Self.decode(bytes, expecting: .m2)
        #expect(decoded.state == .m2)
        #expect(decoded.content == .m2(.init(publicKey: ramp(200), salt: ramp(16))))
        #expect(decoded.diagnostics == [PairingDiagnostic(.missingState(assumed: .m2), offset: 0)])

        let withoutContext = Self.decode(bytes)
        #expect(withoutContext.content == nil)
        #expect(withoutContext.state == nil)
        #expect(withoutContext.diagnostics == [PairingDiagnostic(.missingState(assumed: nil), offset: 0)])
    }

    /// PROTOCOL §8 #20: an M4 that parses as an empty TLV.
    @Test func anEmptyBodyIsTheExpectedStepWithEverythingMissing() {
        let decoded = Self.decode([], expecting: .m4)
        #expect(decoded.content == .m4(.init(proof: nil)))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.missingState(assumed: .m4), offset: 0),
            PairingDiagnostic(.missingItem(.proof), offset: 0),
        ])
    }

    /// PROTOCOL §2.1: HAP-NodeJS answers an M5 it cannot decrypt with State=4 and an Error.
    @Test func aStateOtherThanExpectedIsFollowedAndNoted() {
        let decoded = Self.decode(hex("06 01 04  07 01 02"), expecting: .m6)
        #expect(decoded.content == .error(.init(state: .m4, error: .authentication)))
        #expect(decoded.state == .m4)
        #expect(decoded.diagnostics == [PairingDiagnostic(.stateMismatch(found: .m4, expected: .m6), offset: 0)])
    }

    @Test func aStateOutsideM1ToM6IsNotedAndContextUsedInstead() {
        let invalid = Self.decode(hex("06 01 07"))
        #expect(invalid.content == nil)
        #expect(invalid.diagnostics == [PairingDiagnostic(.invalidState(7), offset: 0)])

        let withContext = Self.decode(hex("06 01 07  05 10") + ramp(16), expecting: .m5)
        #expect(withContext.content == .m5(.init(encryptedData: ramp(16))))
        #expect(withContext.diagnostics == [PairingDiagnostic(.invalidState(7), offset: 0)])

        let tooLong = Self.decode(hex("06 02 02 00"), expecting: .m6)
        #expect(tooLong.state == .m6)
        #expect(tooLong.diagnostics.first == PairingDiagnostic(.wrongLength(.state, length: 2, expected: .exactly(1)), offset: 0))
    }

    @Test func itemsOfTheWrongLengthForTheirRoleAreKeptAndNoted() {
        let bytes = hex("06 01 02") + tlv(.salt, ramp(15)) + [0x03, 0xFF] + ramp(255) + [0x03, 0x82] + ramp(130)
        let decoded = Self.decode(bytes)
        #expect(decoded.content == .m2(.init(publicKey: ramp(255) + ramp(130), salt: ramp(15))))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.wrongLength(.salt, length: 15, expected: .exactly(16)), offset: 3),
            PairingDiagnostic(.wrongLength(.publicKey, length: 385, expected: .within(1 ... 384)), offset: 20),
        ])

        let shortProof = Self.decode(hex("06 01 03") + tlv(.publicKey, ramp(1)) + tlv(.proof, ramp(63)))
        #expect(shortProof.diagnostics == [
            PairingDiagnostic(.wrongLength(.proof, length: 63, expected: .exactly(64)), offset: 6),
        ])
    }

    @Test func unknownTypesUnexpectedItemsAndMissingItemsAreNoted() {
        let bytes = hex("06 01 03") + tlv(.publicKey, ramp(384 - 129)) + tlv(.salt, ramp(16)) + tlv(TLV8Type(0x2A), [1])
        let decoded = Self.decode(bytes, expecting: .m3)
        #expect(decoded.content == .m3(.init(publicKey: ramp(255), proof: nil)))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.missingItem(.proof), offset: 0),
            PairingDiagnostic(.unexpectedItem(.salt), offset: 260),
            PairingDiagnostic(.unknownType(TLV8Type(0x2A)), offset: 278),
        ])
    }

    @Test func m1AllowsOnlyThePairSetupMethods() {
        let decoded = Self.decode(hex("06 01 01  00 01 03"))
        #expect(decoded.content == .m1(.init(method: .addPairing)))
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedMethod(.addPairing), offset: 3)])

        let oversizedFlags = Self.decode(hex("06 01 01  00 01 00  13 05 10 00 00 00 01"))
        #expect(oversizedFlags.content == .m1(.init(method: .pairSetup, flags: nil)))
        #expect(oversizedFlags.diagnostics == [
            PairingDiagnostic(.wrongLength(.flags, length: 5, expected: .within(1 ... 4)), offset: 6),
        ])
    }

    @Test func anErrorResponseCarriesTheCodeAndAnyRetryDelay() {
        let backoff = Self.decode(hex("06 01 04  07 01 03  08 02 2c 01"))
        #expect(backoff.content == .error(.init(state: .m4, error: .backoff, retryDelay: 300)))
        #expect(backoff.diagnostics.isEmpty)

        let undefined = Self.decode(hex("06 01 02  07 01 09") + tlv(.salt, ramp(16)))
        #expect(undefined.content == .error(.init(state: .m2, error: PairingErrorCode(rawValue: 9))))
        #expect(undefined.diagnostics == [
            PairingDiagnostic(.undefinedErrorCode(PairingErrorCode(rawValue: 9)), offset: 3),
            PairingDiagnostic(.unexpectedItem(.salt), offset: 6),
        ])
    }

    @Test func anErrorItemInARequestIsUnexpected() {
        let decoded = Self.decode(hex("06 01 05  07 01 02") + tlv(.encryptedData, ramp(20)))
        #expect(decoded.content == .m5(.init(encryptedData: ramp(20))))
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedItem(.error), offset: 3)])
    }

    @Test func structuralProblemsOfTheBodyComeFirst() {
        let decoded = Self.decode(hex("06 01 06  05 03 aa bb cc  06 01 06"))
        #expect(decoded.diagnostics.first == PairingDiagnostic(.tlv8(.repeatedType(.state)), offset: 8))
        #expect(decoded.diagnostics.dropFirst().contains(PairingDiagnostic(
            .wrongLength(.encryptedData, length: 3, expected: .atLeast(16)), offset: 3)))
    }
}
