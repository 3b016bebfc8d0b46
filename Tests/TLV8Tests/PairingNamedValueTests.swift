import Testing
@testable import TLV8

@Suite struct PairingNamedValueTests {
    @Test func statesAreNamedM1ToM6AndEvenOnesAreResponses() {
        #expect(PairingState.allCases.map(\.description) == ["M1", "M2", "M3", "M4", "M5", "M6"])
        #expect(PairingState.allCases.filter(\.isResponse) == [.m2, .m4, .m6])
        #expect(PairingState(rawValue: 0) == nil)
        #expect(PairingState(rawValue: 7) == nil)
    }

    @Test func methodsShowTheirHAPNameAndValue() {
        let methods: [PairingMethod] = [
            .pairSetup, .pairSetupWithAuth, .pairVerify, .addPairing, .removePairing, .listPairings, .pairResume,
        ]
        #expect(methods.map(\.description) == [
            "PairSetup (0)", "PairSetupWithAuth (1)", "PairVerify (2)", "AddPairing (3)", "RemovePairing (4)",
            "ListPairings (5)", "PairResume (6)",
        ])
        #expect(PairingMethod(rawValue: 9).description == "undefined (9)")
        #expect(PairingMethod(rawValue: 9).name == nil)
    }

    @Test func errorCodesShowTheirHAPNameAndValue() {
        #expect((1 ... 7).map { PairingErrorCode(rawValue: $0).description } == [
            "Unknown (1)", "Authentication (2)", "Backoff (3)", "MaxPeers (4)", "MaxTries (5)", "Unavailable (6)",
            "Busy (7)",
        ])
        #expect(PairingErrorCode.authentication.rawValue == 2)
        #expect(PairingErrorCode(rawValue: 0).description == "undefined (0)")
        #expect(!PairingErrorCode(rawValue: 8).isDefined)
        #expect(PairingErrorCode.busy.isDefined)
    }

    @Test func flagsNameEachSetBitAndKeepUndefinedOnes() {
        #expect(PairingFlags.transient.rawValue == 0x10)
        #expect(PairingFlags.split.rawValue == 0x0100_0000)
        #expect(PairingFlags([.transient, .split]).description == "Transient | Split (0x01000010)")
        #expect(PairingFlags.split.description == "Split (0x01000000)")
        #expect(PairingFlags([]).description == "none (0x00000000)")
        let odd = PairingFlags(rawValue: 0x8000_0110)
        #expect(odd.undefinedBits == 0x8000_0100)
        #expect(odd.description == "Transient | 0x00000100 | 0x80000000 (0x80000110)")
    }

    @Test func permissionsAreRegularUserOrAdminWithUndefinedBitsShown() {
        #expect(PairingPermissions.regularUser.description == "Regular user (0)")
        #expect(PairingPermissions.admin.description == "Admin (1)")
        let odd = PairingPermissions(rawValue: 0x81)
        #expect(odd.contains(.admin))
        #expect(odd.undefinedBits == 0x80)
        #expect(odd.description == "Admin | 0x80 (129)")
    }

    @Test func identifiersShowAsQuotedTextOrAsBytesWhenNotUTF8() {
        #expect(PairingIdentifier("11:22:33:44:55:66").description == "\"11:22:33:44:55:66\"")
        #expect(PairingIdentifier("a\"b\n").description == #""a\"b\n""#)
        let notText = PairingIdentifier(bytes: [0xC3, 0x28])
        #expect(notText.string == nil)
        #expect(notText.description == "2 bytes c328")
    }
}
