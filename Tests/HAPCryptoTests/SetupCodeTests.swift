import Testing
import HAPCrypto

@Suite struct SetupCodeTests {
    @Test func readsACodeOfTheFormXXXdashXXdashXXX() throws {
        let code = try SetupCode("518-08-582")
        #expect(code.text == "518-08-582")
        #expect(code.digits == "51808582")
        #expect(code.forbiddenReason == nil)
        #expect("\(code)" == "518-08-582")
    }

    @Test(arguments: ["51808582", "518-08-58", "518-08-5822", "518_08_582", "518-0a-582", "５18-08-582", "", "518-08-58 "])
    func refusesAnythingElse(text: String) {
        #expect(throws: CryptoError(.invalidFormat, "")) { try SetupCode(text) }
    }

    @Test(arguments: ["000-00-000", "111-11-111", "555-55-555", "999-99-999"])
    func codesWithAllDigitsEqualAreForbidden(text: String) throws {
        #expect(try SetupCode(text).forbiddenReason == .allDigitsEqual)
    }

    @Test func theTwoSequencesAreForbidden() throws {
        #expect(try SetupCode("123-45-678").forbiddenReason == .ascendingSequence)
        #expect(try SetupCode("876-54-321").forbiddenReason == .descendingSequence)
        #expect(try SetupCode("123-45-679").forbiddenReason == nil)
        #expect(try SetupCode("111-22-333").forbiddenReason == nil)
    }
}
