import HAPCrypto
import HAPEvents
import Testing
import TestSupport
@testable import HAPCore

@Suite("Finding a pair-verify's keys in the key log")
struct SessionKeyResolverTests {
    let verify = PairVerifyTranscript()

    /// What the key log made of `entries` yields for M1 and M2 of `verify`; `accessoryKey`
    /// replaces M2's key, `withoutM2` leaves it out.
    private func resolve(
        _ entries: [PairVerifyTranscript.KeyLogEntry], accessoryKey: [UInt8]? = nil, withoutM2: Bool = false
    ) throws -> PairVerifySecrets? {
        let keyLog = try KeyLog(parsing: entries.map(verify.keyLogLine).joined(separator: "\n"), source: "k")
        return SessionKeyResolver.resolve(
            keyLog: keyLog, controllerKey: verify.controllerPublicKey,
            accessoryKey: withoutM2 ? nil : accessoryKey ?? verify.accessoryPublicKey)
    }

    @Test("the shared secret gives the pair-verify key and both session keys",
          arguments: [(PairVerifyTranscript.KeyLogEntry.sharedSecret, KeySource.pairVerifySharedSecret),
                      (.controllerEphemeralSecret, .controllerEphemeralSecret),
                      (.accessoryEphemeralSecret, .accessoryEphemeralSecret)])
    func eachSourceOfTheSharedSecret(entry: PairVerifyTranscript.KeyLogEntry, source: KeySource) throws {
        let secrets = try #require(try resolve([entry]))
        #expect(secrets.source == source)
        #expect(secrets.pairVerifyKeys?.encryptionKey == verify.keys.encryptionKey)
        #expect(secrets.session[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(secrets.session[.accessoryToController] == verify.sessionKeys.accessoryToController)
    }

    @Test("the logged shared secret is preferred to the ephemeral secrets that would compute it")
    func preference() throws {
        let secrets = try resolve([.accessoryEphemeralSecret, .controllerEphemeralSecret, .sharedSecret])
        #expect(secrets?.source == .pairVerifySharedSecret)
        let ephemeral = try resolve([.accessoryEphemeralSecret, .controllerEphemeralSecret])
        #expect(ephemeral?.source == .controllerEphemeralSecret)
    }

    @Test("an ephemeral secret needs the other side's public key: without M2 it gives nothing")
    func ephemeralSecretsNeedM2() throws {
        #expect(try resolve([.controllerEphemeralSecret], withoutM2: true) == nil)
        #expect(try resolve([.accessoryEphemeralSecret], withoutM2: true) == nil)
        #expect(try resolve([.sharedSecret], withoutM2: true)?.source == .pairVerifySharedSecret,
                "the shared secret is keyed by M1 alone")
    }

    @Test("a low-order accessory key, whose shared secret libsodium refuses, falls through to the next entry")
    func lowOrderKeyFallsThrough() throws {
        let lowOrder = [UInt8](repeating: 0, count: 32)
        #expect(try resolve([.controllerEphemeralSecret], accessoryKey: lowOrder) == nil)
        let withWriteKey = try resolve([.controllerEphemeralSecret, .controlWriteKey], accessoryKey: lowOrder)
        #expect(withWriteKey?.source == .controlKeys)
    }

    @Test("control keys give the session keys they hold, one direction each, but no pair-verify key")
    func controlKeys() throws {
        let both = try #require(try resolve([.controlWriteKey, .controlReadKey]))
        #expect(both.source == .controlKeys)
        #expect(both.pairVerifyKeys == nil)
        #expect(both.session[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(both.session[.accessoryToController] == verify.sessionKeys.accessoryToController)
        let readOnly = try #require(try resolve([.controlReadKey]))
        #expect(readOnly.session[.controllerToAccessory] == nil)
        #expect(readOnly.session[.accessoryToController] == verify.sessionKeys.accessoryToController)
    }

    @Test("entries of another pair-verify give nothing")
    func anotherSession() throws {
        let other = PairVerifyTranscript(seed: 2)
        let keyLog = try KeyLog(parsing: PairVerifyTranscript.KeyLogEntry.allCases.map(other.keyLogLine).joined(separator: "\n"), source: "k")
        #expect(SessionKeyResolver.resolve(keyLog: keyLog, controllerKey: verify.controllerPublicKey, accessoryKey: verify.accessoryPublicKey) == nil)
    }

    @Test("directional keys say which directions they hold")
    func directionalKeys() {
        #expect(DirectionalSessionKeys.none.isEmpty)
        #expect(DirectionalSessionKeys.none[.controllerToAccessory] == nil)
        let keys = DirectionalSessionKeys(verify.sessionKeys)
        #expect(!keys.isEmpty)
        #expect(keys[.controllerToAccessory] == verify.sessionKeys.controllerToAccessory)
        #expect(keys[.accessoryToController] == verify.sessionKeys.accessoryToController)
        let one = DirectionalSessionKeys(controllerToAccessory: nil, accessoryToController: verify.sessionKeys.accessoryToController)
        #expect(!one.isEmpty)
    }
}
