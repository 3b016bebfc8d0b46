import HAPCrypto
import HAPEvents
import Testing
import TestSupport
import TLV8
import WireParsing
@testable import HAPCore

@Suite("The SRP judgements of pair-setup")
struct SRPChecksTests {
    let setup = PairSetupTranscript()

    /// An exchange record holding what M2 and M3 of `setup` sent.
    private func exchange(_ setup: PairSetupTranscript, m2: Bool = true, m3: Bool = true) -> PairingExchangeRecord {
        var exchange = PairingExchangeRecord(procedure: .pairSetup)
        if m2 {
            exchange.salt = setup.salt
            exchange.accessorySRPKey = setup.accessoryPublicKey
        }
        if m3 {
            exchange.controllerSRPKey = setup.controllerPublicKey
            exchange.controllerProof = setup.controllerProof
        }
        return exchange
    }

    /// M2 decoded as the follower decodes it.
    private func decodedM2(_ bytes: [UInt8]) -> PairSetupMessage.M2? {
        var cursor = ByteCursor(bytes.span.bytes, layer: .tlv8)
        let body = TLV8Body(parsingLeniently: &cursor)
        guard case .pairSetup(.m2(let m2))? = PairingContent.decode(body, as: .pairSetup, expectedState: .m2, requestMethod: nil).content
        else { return nil }
        return m2
    }

    @Test("a 16-byte salt is fine; any other length is a problem naming it")
    func salt() {
        #expect(SRPChecks.problems(salt: setup.salt).isEmpty)
        #expect(SRPChecks.problems(salt: [1, 2, 3]) == [.saltLength(byteCount: 3)])
    }

    @Test("A and B are judged as sent, for the party that sent them")
    func publicValues() {
        #expect(SRPChecks.problems(publicValue: setup.controllerPublicKey, of: .controller).isEmpty)
        #expect(SRPChecks.problems(publicValue: SRPGroup.prime, of: .accessory) == [.publicValueZeroModuloPrime(.accessory)])
        #expect(SRPChecks.problems(publicValue: [], of: .controller) == [.publicValueZeroModuloPrime(.controller)])
        #expect(SRPChecks.problems(publicValue: [UInt8](repeating: 0xFF, count: 384), of: .controller) == [.publicValueNotReduced(.controller)])
        #expect(SRPChecks.problems(publicValue: [UInt8](repeating: 1, count: 385), of: .accessory) == [.publicValueTooLong(.accessory, byteCount: 385)])
    }

    @Test("HAPCrypto's findings become the vocabulary's, party for party")
    func vocabulary() {
        #expect(SRPValueProblem(.saltLength(byteCount: 15)) == .saltLength(byteCount: 15))
        #expect(SRPValueProblem(.publicKeyTooLong(.controller, byteCount: 400)) == .publicValueTooLong(.controller, byteCount: 400))
        #expect(SRPValueProblem(.publicKeyZeroModuloPrime(.accessory)) == .publicValueZeroModuloPrime(.accessory))
        #expect(SRPValueProblem(.publicKeyNotReduced(.accessory)) == .publicValueNotReduced(.accessory))
    }

    @Test("an M2 with salt and B gives a transcript; one lacking them says which is missing")
    func missingValues() throws {
        let whole = try #require(decodedM2(setup.m2()))
        #expect(SRPChecks.missingValues(of: whole) == nil)
        let noB = try #require(decodedM2(PairSetupMessage.m2(.init(publicKey: nil, salt: setup.salt)).encoded()))
        #expect(SRPChecks.missingValues(of: noB) == "M2 has no B")
        let neither = try #require(decodedM2(PairSetupMessage.m2(.init(publicKey: nil, salt: nil)).encoded()))
        #expect(SRPChecks.missingValues(of: neither) == "M2 has no salt and M2 has no B")
    }

    @Test("values of the wrong length are kept as sent, not counted missing: the proof is checked against them")
    func wrongLengthsAreNotMissing() throws {
        let short = try #require(decodedM2(PairSetupMessage.m2(.init(publicKey: [7], salt: [1, 2, 3])).encoded()))
        #expect(short.salt == [1, 2, 3])
        #expect(SRPChecks.missingValues(of: short) == nil)
    }

    @Test("the controller's proof passes under the convention it was made with, which is returned")
    func controllerProofPasses() {
        let (check, encoding) = SRPChecks.controllerProof(in: exchange(setup), sessionKey: setup.sessionKey)
        #expect(check.kind == .srpControllerProof)
        #expect(check.outcome == .passed)
        #expect(check.detail == "M3 proof matches K, salt as sent, A as sent, B as sent, 64-byte K")
        #expect(encoding == .full)
    }

    @Test("a K with leading zeros hashed stripped is matched, and the K encoding returned for the later derivations")
    func strippedKConvention() throws {
        var zeroK = setup
        zeroK.sessionKey = SecretBytes([0, 0] + [UInt8](repeating: 0x5C, count: 62))
        let stripped = try SRPTranscript(
            salt: zeroK.salt.span.bytes, controllerPublicKey: zeroK.controllerPublicKey.span.bytes,
            accessoryPublicKey: zeroK.accessoryPublicKey.span.bytes, sessionKey: zeroK.sessionKey)
        let convention = SRPControllerProofConvention(salt: .asSent, controllerPublicKey: .asSent, accessoryPublicKey: .asSent, sessionKey: .leadingZerosStripped)
        var record = exchange(zeroK)
        record.controllerProof = stripped.controllerProof(convention: convention)
        let (check, encoding) = SRPChecks.controllerProof(in: record, sessionKey: zeroK.sessionKey)
        #expect(check.outcome == .passed)
        #expect(encoding == .leadingZerosStripped)
    }

    @Test("a proof that matches no convention fails, and no encoding is returned")
    func controllerProofFails() {
        var record = exchange(setup)
        record.controllerProof = [UInt8](repeating: 9, count: 64)
        let (check, encoding) = SRPChecks.controllerProof(in: record, sessionKey: setup.sessionKey)
        #expect(check.outcome == .failed)
        #expect(encoding == nil)
    }

    @Test("without A, the proof, or M2, the controller's proof is not checked, and the reason says which")
    func controllerProofNotChecked() {
        #expect(SRPChecks.controllerProof(in: exchange(setup, m3: false), sessionKey: setup.sessionKey).0.outcome
            == .notChecked("M3 has no A or no proof"))
        #expect(SRPChecks.controllerProof(in: exchange(setup, m2: false), sessionKey: setup.sessionKey).0.outcome
            == .notChecked("no M2 in the exchange"))
        var noB = exchange(setup)
        noB.accessorySRPKey = nil
        noB.accessorySRPValuesMissing = "M2 has no B"
        #expect(SRPChecks.controllerProof(in: noB, sessionKey: setup.sessionKey).0.outcome == .notChecked("M2 has no B"))
    }

    @Test("the accessory's proof is judged only once K is known, against the controller's proof as sent")
    func accessoryProof() {
        var record = exchange(setup)
        #expect(SRPChecks.accessoryProof(setup.accessoryProof, in: record) == nil, "no K: the controller's check said so")
        record.sessionKey = setup.sessionKey
        #expect(SRPChecks.accessoryProof(setup.accessoryProof, in: record)?.outcome == .passed)
        #expect(SRPChecks.accessoryProof(setup.accessoryProof, in: record)?.detail == "M4 proof matches K, A as sent, 64-byte K")
        #expect(SRPChecks.accessoryProof(setup.controllerProof, in: record)?.outcome == .failed)
        record.controllerProof = [UInt8](repeating: 1, count: 64)
        #expect(SRPChecks.accessoryProof(setup.accessoryProof, in: record)?.outcome == .failed,
                "M4 answers the M1 that was sent, not the one that should have been")
    }
}
