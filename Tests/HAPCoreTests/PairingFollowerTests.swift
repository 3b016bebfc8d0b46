import HAPCrypto
import HAPEvents
import Testing
import TestSupport
import TLV8
@testable import HAPCore

@Suite("Following a pair-setup")
struct PairSetupFollowingTests {
    let setup = PairSetupTranscript()

    @Test("with K logged, both SRP proofs and both signatures pass and both long-term keys are learned")
    func aWholePairSetup() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        #expect(harness.pairSetup(setup) == nil, "a pair-setup that stores a pairing starts no session")
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.steps.map(\.state) == [.m1, .m2, .m3, .m4, .m5, .m6])
        #expect(exchange.steps.map(\.direction) == [.controllerToAccessory, .accessoryToController, .controllerToAccessory,
                                                   .accessoryToController, .controllerToAccessory, .accessoryToController])
        #expect(exchange.checks.map(\.kind) == [.srpControllerProof, .srpAccessoryProof, .signature(.m5), .signature(.m6)])
        #expect(exchange.checks.map(\.outcome) == [.passed, .passed, .passed, .passed])
        #expect(exchange.check(.srpControllerProof)?.detail == "M3 proof matches K, salt as sent, A as sent, B as sent, 64-byte K")
        #expect(exchange.method == .pairSetup)
        #expect(exchange.salt == setup.salt)
        #expect(exchange.srpProblems.isEmpty)
        #expect(exchange.controllerPairingID == setup.controller.identifier)
        #expect(exchange.controllerLTPK == setup.controller.longTermPublicKey)
        #expect(exchange.accessoryPairingID == setup.accessory.identifier)
        #expect(exchange.accessoryLTPK == setup.accessory.longTermPublicKey)
        #expect(harness.follower.accessoryID == setup.accessory.identifier, "M6 names the accessory")
        #expect(harness.context.controllerLTPKs[setup.controller.identifier.lowercased()] == setup.controller.longTermPublicKey)
        #expect(harness.context.accessoryLTPKs[setup.accessory.identifier.lowercased()] == setup.accessory.longTermPublicKey)
        let decrypted = harness.recorder.pairingMessages.map(\.decrypted)
        #expect(decrypted == [nil, nil, nil, nil, setup.controllerSubTLV(), setup.accessorySubTLV()])
    }

    @Test("every message is reported as it arrives, the exchange only when M6 ends it")
    func messagesStreamTheExchangeWaits() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        #expect(harness.recorder.pairingMessages.map(\.state) == [.m1, .m2])
        #expect(harness.recorder.pairingExchanges.isEmpty)
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, setup.m5())
        harness.response(.pairSetup, setup.m6())
        #expect(harness.recorder.events.last.map { if case .pairingExchange = $0.kind { true } else { false } } == true)
        #expect(harness.recorder.events.last?.packet?.number == 6, "the exchange is reported with the message that ended it")
        #expect(harness.follower.exchange == nil)
    }

    @Test("each message says how long after the previous one of its exchange it came")
    func elapsedTimes() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        let elapsed = harness.recorder.pairingMessages.map(\.elapsed)
        #expect(elapsed.count == 2)
        #expect(elapsed[0] == nil)
        #expect(abs((elapsed[1] ?? 0) - 0.001) < 1e-9)
    }

    @Test("without K for A the proofs are not checked, and M5 and M6 say there is no key")
    func withoutK() throws {
        let harness = try PairingHarness()
        harness.pairSetup(setup)
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.outcome(.srpControllerProof) == .notChecked("no PAIR_SETUP_SESSION_KEY for this A"))
        #expect(exchange.check(.srpAccessoryProof) == nil, "the controller's proof check already said why")
        #expect(exchange.outcome(.signature(.m5)) == .notChecked("no PAIR_SETUP_SESSION_KEY"))
        #expect(exchange.outcome(.signature(.m6)) == .notChecked("no PAIR_SETUP_SESSION_KEY"))
        #expect(exchange.controllerLTPK == nil && exchange.accessoryLTPK == nil)
        #expect(harness.recorder.pairingMessages.allSatisfy { $0.decrypted == nil })
    }

    @Test("K logged for another A does not count")
    func kForAnotherA() throws {
        let other = PairSetupTranscript(seed: 9)
        let harness = try PairingHarness(keyLog: [other.keyLogLine])
        harness.pairSetup(setup)
        #expect(harness.onlyExchange?.outcome(.srpControllerProof) == .notChecked("no PAIR_SETUP_SESSION_KEY for this A"))
    }

    @Test("an M2 without B leaves the controller's proof unchecked, and says so")
    func m2WithoutB() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, PairSetupMessage.m2(.init(publicKey: nil, salt: setup.salt)).encoded())
        harness.request(.pairSetup, setup.m3())
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.srpControllerProof) == .notChecked("M2 has no B"))
        #expect(exchange.outcome == .incomplete(lastState: .m3))
    }

    @Test("an M2 with neither salt nor B names both")
    func m2WithNothing() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, PairSetupMessage.m2(.init(publicKey: nil, salt: nil)).encoded())
        harness.request(.pairSetup, setup.m3())
        harness.close()
        #expect(harness.onlyExchange?.outcome(.srpControllerProof) == .notChecked("M2 has no salt and M2 has no B"))
    }

    @Test("an M3 with no M2 before it leaves the proof unchecked for want of M2")
    func m3WithoutM2() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.request(.pairSetup, setup.m3())
        harness.close()
        #expect(harness.onlyExchange?.outcome(.srpControllerProof) == .notChecked("no M2 in the exchange"))
    }

    @Test("a B that breaks HAP's rules is reported on M2, and the proof is still checked against B as sent")
    func brokenBIsKeptAsSent() throws {
        var broken = setup
        broken.accessoryPublicKey = [0x01] + setup.accessoryPublicKey  // 385 bytes, longer than N
        let harness = try PairingHarness(keyLog: [broken.keyLogLine])
        harness.pairSetup(broken)
        let m2 = try #require(harness.recorder.pairingMessages.first { $0.state == .m2 })
        #expect(m2.srpProblems == [.publicValueTooLong(.accessory, byteCount: 385)])
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.srpControllerProof) == .passed, "the controller hashed the B it received")
        #expect(exchange.srpProblems == [.publicValueTooLong(.accessory, byteCount: 385)])
    }

    @Test("a proof made over the salt padded to 16 bytes is matched, and the convention named")
    func paddedSaltConvention() throws {
        var short = setup
        short.salt = Array(setup.salt.prefix(15))
        var padded = short
        padded.salt = [0] + short.salt
        let harness = try PairingHarness(keyLog: [short.keyLogLine])
        harness.request(.pairSetup, short.m1())
        harness.response(.pairSetup, short.m2())
        harness.request(.pairSetup, short.m3(proof: padded.controllerProof))
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.check(.srpControllerProof)?.detail == "M3 proof matches K, salt padded, A as sent, B as sent, 64-byte K")
        #expect(exchange.srpProblems == [.saltLength(byteCount: 15)])
    }

    @Test("a wrong M3 proof fails the controller's proof, and the accessory's refusal ends the exchange")
    func wrongControllerProof() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3(proof: [UInt8](repeating: 0xEE, count: 64)))
        harness.response(.pairSetup, PairSetupTranscript.error(at: .m4, .authentication))
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.srpControllerProof) == .failed)
        #expect(exchange.check(.srpControllerProof)?.detail == "M3 proof does not match the logged K under any padding convention")
        #expect(exchange.outcome == .failed(state: .m4, error: .authentication, retryDelay: nil))
    }

    @Test("a wrong M4 proof fails the accessory's proof")
    func wrongAccessoryProof() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4(proof: setup.controllerProof))
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.srpControllerProof) == .passed)
        #expect(exchange.outcome(.srpAccessoryProof) == .failed)
        #expect(exchange.check(.srpAccessoryProof)?.detail == "M4 proof does not match the logged K")
    }

    @Test("an M5 or M6 sealed with another key fails its decryption check, and nothing is learned from it",
          arguments: [PairingState.m5, .m6])
    func sealedWithAnotherKey(state: PairingState) throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, state == .m5 ? setup.m5(sealedWith: .stranger) : setup.m5())
        harness.response(.pairSetup, state == .m6 ? setup.m6(sealedWith: .stranger) : setup.m6())
        let exchange = try #require(harness.onlyExchange)
        let name = state == .m5 ? "Pair Setup M5" : "Pair Setup M6"
        #expect(exchange.outcome(.subTLVDecryption(state)) == .failed)
        #expect(exchange.check(.subTLVDecryption(state))?.detail == "\(name) does not decrypt with the key derived from the logged K")
        #expect(exchange.check(.signature(state)) == nil, "there is nothing to check a signature on")
        #expect(harness.recorder.pairingMessages.first { $0.state == state }?.decrypted == nil)
        if state == .m5 {
            #expect(exchange.controllerLTPK == nil && harness.context.controllerLTPKs.isEmpty)
        } else {
            #expect(exchange.accessoryLTPK == nil && harness.context.accessoryLTPKs.isEmpty)
            #expect(harness.follower.accessoryID == nil)
        }
    }

    @Test("a sub-TLV lacking its signature fails the items check, and is still shown decrypted")
    func subTLVWithoutSignature() throws {
        var inner = setup.controllerSubTLV()
        inner.signature = nil
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, setup.m5(inner))
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.subTLVItems(.m5)) == .failed)
        #expect(exchange.check(.subTLVItems(.m5))?.detail == "Pair Setup M5 sub-TLV lacks Identifier, PublicKey or Signature")
        #expect(harness.recorder.pairingMessages.last?.decrypted == inner)
        #expect(exchange.controllerPairingID == nil, "an identity without its signature is not learned")
    }

    @Test("a signature made with another key than the LTPK sent fails")
    func signatureByAnotherKey() throws {
        var inner = setup.accessorySubTLV()
        inner.signature = [UInt8](repeating: 0x42, count: 64)
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, setup.m5())
        harness.response(.pairSetup, setup.m6(inner))
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.signature(.m5)) == .passed)
        #expect(exchange.outcome(.signature(.m6)) == .failed)
        let detail = try #require(exchange.check(.signature(.m6))?.detail)
        #expect(detail.hasPrefix("Ed25519 signature of accessory \(setup.accessory.identifier) (long-term key from M6) does not verify"))
    }

    @Test("an LTPK that is not 32 bytes fails the signature check, naming the key")
    func ltpkOfTheWrongLength() throws {
        var inner = setup.controllerSubTLV()
        inner.publicKey = Array(setup.controller.longTermPublicKey.prefix(31))
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, setup.m5(inner))
        harness.close()
        let check = try #require(harness.onlyExchange?.check(.signature(.m5)))
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("the long-term key of controller \(setup.controller.identifier) (long-term key from M5) is not an Ed25519 public key"))
    }

    @Test("an all-zero LTPK, a firmware bug seen in the wild, fails the signature check")
    func allZeroLTPK() throws {
        var inner = setup.accessorySubTLV()
        inner.publicKey = [UInt8](repeating: 0, count: 32)
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        harness.response(.pairSetup, setup.m4())
        harness.request(.pairSetup, setup.m5())
        harness.response(.pairSetup, setup.m6(inner))
        let check = try #require(harness.onlyExchange?.check(.signature(.m6)))
        #expect(check.outcome == .failed)
        #expect(check.detail.contains("all zero"))
    }

    @Test("SRP values that break HAP's rules are carried by the message that sent them and by the exchange")
    func srpValueProblems() throws {
        var broken = setup
        broken.salt = Array(setup.salt.prefix(15))
        broken.accessoryPublicKey = SRPGroup.prime
        broken.controllerPublicKey = [UInt8](repeating: 0, count: 384)
        let harness = try PairingHarness()
        harness.request(.pairSetup, broken.m1())
        harness.response(.pairSetup, broken.m2())
        harness.request(.pairSetup, broken.m3())
        harness.response(.pairSetup, PairSetupTranscript.error(at: .m4, .authentication))
        let messages = harness.recorder.pairingMessages
        #expect(messages.map(\.srpProblems) == [
            [],
            [.saltLength(byteCount: 15), .publicValueZeroModuloPrime(.accessory)],
            [.publicValueZeroModuloPrime(.controller)],
            [],
        ])
        #expect(harness.onlyExchange?.srpProblems == [
            .saltLength(byteCount: 15), .publicValueZeroModuloPrime(.accessory), .publicValueZeroModuloPrime(.controller),
        ])
    }

    @Test("an Error at M2 ends the exchange as failed, with its code and retry delay")
    func refusedAtM2() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, PairSetupTranscript.error(at: .m2, .backoff, retryDelay: 30))
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .failed(state: .m2, error: .backoff, retryDelay: 30))
        #expect(harness.follower.exchange == nil)
    }
}

@Suite("Following a transient pair-setup")
struct TransientPairSetupFollowingTests {
    let setup = PairSetupTranscript(flags: .transient)

    @Test("a transient pair-setup ends at M4 and keys the session from K")
    func keyedFromK() throws {
        let harness = try PairingHarness(keyLog: [setup.keyLogLine])
        harness.request(.pairSetup, setup.m1())
        #expect(harness.response(.pairSetup, setup.m2()) == nil)
        harness.request(.pairSetup, setup.m3())
        let start = try #require(harness.response(.pairSetup, setup.m4()))
        #expect(start.trigger == .transientPairSetup)
        #expect(start.source == .pairSetupSessionKey)
        #expect(start.missingKeys == nil)
        #expect(start.keys[.controllerToAccessory] == setup.keys.transientSession.controllerToAccessory)
        #expect(start.keys[.accessoryToController] == setup.keys.transientSession.accessoryToController)
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.isTransientSetup)
        #expect(exchange.steps.count == 4)
    }

    @Test("without K, the session of a transient pair-setup has no keys, and says why")
    func withoutK() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m3())
        let start = try #require(harness.response(.pairSetup, setup.m4()))
        #expect(start.keys.isEmpty)
        #expect(start.source == nil)
        #expect(start.missingKeys == .noPairSetupSessionKey)
    }

    @Test("with PairSetupWithAuth the Transient flag is ignored and the setup goes on to M6")
    func withAuthIsNotTransient() throws {
        let authenticated = PairSetupTranscript(method: .pairSetupWithAuth, flags: .transient)
        let harness = try PairingHarness(keyLog: [authenticated.keyLogLine])
        harness.request(.pairSetup, authenticated.m1())
        harness.response(.pairSetup, authenticated.m2())
        harness.request(.pairSetup, authenticated.m3())
        #expect(harness.response(.pairSetup, authenticated.m4()) == nil)
        #expect(harness.recorder.pairingExchanges.isEmpty, "the exchange is still open")
        harness.request(.pairSetup, authenticated.m5())
        harness.response(.pairSetup, authenticated.m6())
        #expect(harness.onlyExchange?.outcome == .succeeded)
    }
}

@Suite("Following a pair-verify")
struct PairVerifyFollowingTests {
    let verify = PairVerifyTranscript()
    var longTermKeys: [String] {
        [verify.accessory.keyLogLine(.accessoryLTPK), verify.controller.keyLogLine(.controllerLTPK)]
    }

    @Test("with the shared secret and both LTPKs logged, both signatures pass and the session starts with its keys")
    func aWholePairVerify() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)] + longTermKeys)
        let start = try #require(harness.pairVerify(verify))
        #expect(start.trigger == .pairVerify)
        #expect(start.source == .pairVerifySharedSecret)
        #expect(start.missingKeys == nil)
        #expect(start.keys[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(start.keys[.accessoryToController] == verify.sessionKeys.accessoryToController)
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.procedure == .pairVerify)
        #expect(exchange.checks.map(\.kind) == [.signature(.m2), .signature(.m3)])
        #expect(exchange.checks.map(\.outcome) == [.passed, .passed])
        #expect(exchange.controllerEphemeralKey == verify.controllerPublicKey)
        #expect(exchange.accessoryEphemeralKey == verify.accessoryPublicKey)
        #expect(exchange.accessoryPairingID == verify.accessory.identifier)
        #expect(exchange.controllerPairingID == verify.controller.identifier)
        #expect(exchange.sessionControllerID == verify.controller.identifier)
        #expect(harness.follower.verifiedControllerID == verify.controller.identifier)
        #expect(harness.follower.accessoryID == verify.accessory.identifier)
        let decrypted = harness.recorder.pairingMessages.map(\.decrypted)
        #expect(decrypted == [nil, verify.accessorySubTLV(), verify.controllerSubTLV(), nil])
    }

    @Test("any one of the secrets that give the shared secret opens the exchange, and is named as the source",
          arguments: [(PairVerifyTranscript.KeyLogEntry.sharedSecret, KeySource.pairVerifySharedSecret),
                      (.controllerEphemeralSecret, .controllerEphemeralSecret),
                      (.accessoryEphemeralSecret, .accessoryEphemeralSecret)])
    func eachSecretOpensIt(entry: PairVerifyTranscript.KeyLogEntry, source: KeySource) throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(entry)] + longTermKeys)
        let start = try #require(harness.pairVerify(verify))
        #expect(start.source == source)
        #expect(start.keys[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(harness.onlyExchange?.checks.map(\.outcome) == [.passed, .passed])
    }

    @Test("without a key-log entry the session starts undecryptable, naming the controller's ephemeral key")
    func withoutAnEntry() throws {
        let harness = try PairingHarness(keyLog: longTermKeys)
        let start = try #require(harness.pairVerify(verify))
        #expect(start.keys.isEmpty)
        #expect(start.source == nil)
        #expect(start.missingKeys == .noKeyLogEntry(controllerEphemeralKey: verify.controllerPublicKey))
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.checks.map(\.outcome) == [.notChecked("no key-log entry for this pair-verify"),
                                                   .notChecked("no key-log entry for this pair-verify")])
        #expect(exchange.sessionControllerID == nil)
    }

    @Test("control keys alone open the session's frames but not the sub-TLVs; one key opens one direction")
    func controlKeysOnly() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.controlWriteKey)])
        let start = try #require(harness.pairVerify(verify))
        #expect(start.source == .controlKeys)
        #expect(start.keys[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(start.keys[.accessoryToController] == nil)
        #expect(harness.onlyExchange?.outcome(.signature(.m2)) == .notChecked("the key log has session keys but no shared secret"))
    }

    @Test("a signature by an accessory whose long-term key is neither logged nor learned is not checked, naming it")
    func unknownSigner() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)])
        harness.pairVerify(verify)
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.signature(.m2)) == .notChecked("no long-term public key known for accessory \(verify.accessory.identifier)"))
        #expect(exchange.outcome(.signature(.m3)) == .notChecked("no long-term public key known for controller \(verify.controller.identifier)"))
        #expect(exchange.accessoryPairingID == verify.accessory.identifier, "the identity is learned all the same")
    }

    @Test("a signature by another key than the signer's logged LTPK fails")
    func badSignature() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)] + longTermKeys)
        harness.request(.pairVerify, verify.m1())
        harness.response(.pairVerify, verify.m2(verify.accessorySubTLV(signedBy: .stranger)))
        harness.close()
        let check = try #require(harness.onlyExchange?.check(.signature(.m2)))
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("Ed25519 signature of accessory \(verify.accessory.identifier) does not verify"))
    }

    @Test("a logged LTPK that is no usable key fails the signature check")
    func unusableLoggedKey() throws {
        let zeroKey = "ACCESSORY_LTPK \(verify.accessory.identifier) \(String(repeating: "00", count: 32))"
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret), zeroKey])
        harness.request(.pairVerify, verify.m1())
        harness.response(.pairVerify, verify.m2())
        harness.close()
        let check = try #require(harness.onlyExchange?.check(.signature(.m2)))
        #expect(check.outcome == .failed)
        #expect(check.detail.contains("all zero"))
    }

    @Test("an M2 or M3 that does not open with the logged secret fails its decryption check", arguments: [PairingState.m2, .m3])
    func doesNotDecrypt(state: PairingState) throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)] + longTermKeys)
        harness.request(.pairVerify, verify.m1())
        harness.response(.pairVerify, state == .m2 ? verify.m2(sealedWith: .stranger) : verify.m2())
        harness.request(.pairVerify, state == .m3 ? verify.m3(sealedWith: .stranger) : verify.m3())
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.outcome(.subTLVDecryption(state)) == .failed)
        let name = state == .m2 ? "Pair Verify M2" : "Pair Verify M3"
        #expect(exchange.check(.subTLVDecryption(state))?.detail == "\(name) does not decrypt with the logged shared secret")
        #expect(exchange.check(.signature(state)) == nil)
        if state == .m3 { #expect(exchange.sessionControllerID == nil) }
    }

    @Test("an M2 sub-TLV lacking its identifier fails the items check")
    func subTLVWithoutIdentifier() throws {
        var inner = verify.accessorySubTLV()
        inner.identifier = nil
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)] + longTermKeys)
        harness.request(.pairVerify, verify.m1())
        harness.response(.pairVerify, verify.m2(inner))
        harness.close()
        let check = try #require(harness.onlyExchange?.check(.subTLVItems(.m2)))
        #expect(check.outcome == .failed)
        #expect(check.detail == "Pair Verify M2 sub-TLV lacks Identifier or Signature")
    }

    @Test("an accessory ephemeral key of the wrong length makes the signed material malformed")
    func malformedSignedMaterial() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)] + longTermKeys)
        harness.request(.pairVerify, verify.m1())
        harness.response(.pairVerify, verify.m2(publicKey: Array(verify.accessoryPublicKey.prefix(31))))
        harness.close()
        let check = try #require(harness.onlyExchange?.check(.signature(.m2)))
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("the signed material is malformed"))
    }

    @Test("long-term keys learned from a pair-setup check a later pair-verify of the same run, whatever the identifier's case")
    func learnedKeysServeLaterConnections() throws {
        let setup = PairSetupTranscript()
        let lowerCased = PairingParty(identifier: setup.controller.identifier.lowercased(), seed: 0xC1)
        let later = PairVerifyTranscript(controller: lowerCased)
        let harness = try PairingHarness(keyLog: [setup.keyLogLine, later.keyLogLine(.sharedSecret)])
        harness.pairSetup(setup)
        harness.newConnection()
        harness.pairVerify(later)
        let exchanges = harness.recorder.pairingExchanges
        #expect(exchanges.map(\.procedure) == [.pairSetup, .pairVerify])
        #expect(exchanges.last?.checks.map(\.outcome) == [.passed, .passed])
    }

    @Test("an Error at M2 ends the pair-verify as failed and starts no session")
    func refused() throws {
        let harness = try PairingHarness(keyLog: [verify.keyLogLine(.sharedSecret)])
        harness.request(.pairVerify, verify.m1())
        #expect(harness.response(.pairVerify, PairVerifyTranscript.error(at: .m2, .authentication)) == nil)
        #expect(harness.onlyExchange?.outcome == .failed(state: .m2, error: .authentication, retryDelay: nil))
    }
}

@Suite("Keeping track of pairing exchanges")
struct PairingExchangeBookkeepingTests {
    let setup = PairSetupTranscript()

    @Test("a new M1 ends the exchange in progress as incomplete and opens another")
    func aNewM1() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.request(.pairSetup, setup.m1())
        let first = try #require(harness.onlyExchange)
        #expect(first.outcome == .incomplete(lastState: .m2))
        #expect(first.steps.count == 2)
        #expect(harness.recorder.events.last?.packet?.number == 3, "reported with the M1 that replaced it")
        #expect(harness.follower.exchange?.steps.map(\.state) == [.m1])
    }

    @Test("a request of another procedure ends the exchange in progress")
    func anotherProcedure() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.request(.pairVerify, PairVerifyTranscript().m1())
        #expect(harness.onlyExchange?.procedure == .pairSetup)
        #expect(harness.follower.exchange?.procedure == .pairVerify)
    }

    @Test("a response without its request ends the exchange in progress and is decoded on its own")
    func aResponseWithoutItsRequest() throws {
        let verify = PairVerifyTranscript()
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        harness.response(.pairSetup, setup.m2())
        harness.response(.pairVerify, verify.m2())
        let old = try #require(harness.onlyExchange)
        #expect(old.procedure == .pairSetup)
        #expect(old.outcome == .incomplete(lastState: .m2))
        let last = try #require(harness.recorder.pairingMessages.last)
        #expect(last.procedure == .pairVerify)
        #expect(last.state == .m2)
        #expect(harness.follower.exchange?.procedure == .pairVerify)
    }

    @Test("an exchange keeps at most maximumSteps steps, checks and SRP problems, however long a peer repeats itself")
    func stepBound() throws {
        var zeroA = setup
        zeroA.controllerPublicKey = [UInt8](repeating: 0, count: 384)
        let harness = try PairingHarness()
        harness.request(.pairSetup, setup.m1())
        let repeats = PairingExchangeRecord.maximumSteps + 8
        for _ in 0 ..< repeats { harness.request(.pairSetup, zeroA.m3()) }
        harness.close()
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.steps.count == PairingExchangeRecord.maximumSteps)
        #expect(exchange.checks.count == PairingExchangeRecord.maximumSteps)
        #expect(exchange.srpProblems.count == PairingExchangeRecord.maximumSteps)
        #expect(harness.recorder.pairingMessages.count == repeats + 1, "every message is still reported")
    }

    @Test("closing reports the exchange in progress once, and nothing when none is open")
    func closing() throws {
        let harness = try PairingHarness()
        harness.close()
        #expect(harness.recorder.pairingExchanges.isEmpty)
        harness.request(.pairSetup, setup.m1())
        harness.close()
        harness.close()
        #expect(harness.onlyExchange?.outcome == .incomplete(lastState: .m1))
        #expect(harness.recorder.events.last?.packet?.number == 1, "with its last step's packet when none is given")
    }

    @Test("/pairings: an AddPairing answered at M2 ends the exchange as succeeded, with both messages")
    func addPairing() throws {
        let add = PairingsMessage.addPairingM1(.init(
            identifier: PairingIdentifier("new-controller"), publicKey: [UInt8](repeating: 3, count: 32), permissions: .admin))
        let harness = try PairingHarness()
        harness.request(.pairings, add.encoded())
        harness.response(.pairings, PairingsMessage.addPairingM2.encoded())
        let exchange = try #require(harness.onlyExchange)
        #expect(exchange.procedure == .pairings)
        #expect(exchange.method == .addPairing)
        #expect(exchange.outcome == .succeeded)
        #expect(exchange.pairingsRequest == add)
        #expect(exchange.pairingsResponse == .addPairingM2)
    }

    @Test("/pairings: an Error answer ends the exchange as failed")
    func pairingsRefused() throws {
        let harness = try PairingHarness()
        harness.request(.pairings, PairingsMessage.removePairingM1(.init(identifier: PairingIdentifier("old"))).encoded())
        harness.response(.pairings, PairingsMessage.error(PairingErrorResponse(state: .m2, error: .authentication)).encoded())
        #expect(harness.onlyExchange?.outcome == .failed(state: .m2, error: .authentication, retryDelay: nil))
    }

    @Test("a body that is no pairing message is still reported, with what the decoder found wrong")
    func garbage() throws {
        let harness = try PairingHarness()
        harness.request(.pairSetup, [0xFF, 0x05, 1, 2])
        let message = try #require(harness.recorder.pairingMessages.first)
        #expect(!message.diagnostics.isEmpty || !message.body.diagnostics.isEmpty)
    }
}
