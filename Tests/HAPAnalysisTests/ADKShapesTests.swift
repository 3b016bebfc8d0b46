import DNS
import HAPCatalog
import HAPCore
import HAPEvents
import HAPJSON
import HTTP1
import Testing
import TestSupport
import TLV8

/// What HomeKitADK accessories put on the wire and HAP-python does not (issue 22, point 5), each
/// decoded as it is meant: `adk-shapes`, HAP-python patched to write ADK's Lightbulb sample
/// (captures/README.md, "HomeKitADK shapes"), so that no later change of a decoder breaks them.
@Suite("HomeKitADK's shapes")
struct ADKShapesTests {
    private static let recorded = Result { try RecordedAnalysis("adk-shapes") }

    private func events<T>(_ extract: (HAPEvent.Kind) -> T?) throws -> [T] {
        try Self.recorded.get().events(extract)
    }

    @Test("Pair-setup M2 in ADK's order, State, PublicKey (B in fragments of 255 and 129), Salt, completes the setup")
    func pairSetupM2() throws {
        let m2 = try #require(try events { kind -> PairingMessageEvent? in
            if case .pairingMessage(let message) = kind, message.procedure == .pairSetup, message.state == .m2 { return message }
            return nil
        }.first)
        #expect(m2.body.items.map(\.type) == [.state, .publicKey, .salt])
        #expect(m2.body.items[1].value.count == 384 && m2.body.items[1].fragmentCount == 2)
        guard case .pairSetup(.m2(let content))? = m2.content else { Issue.record("M2 not decoded as pair-setup M2"); return }
        #expect(content.publicKey?.count == 384 && content.salt?.count == 16)
        let setup = try #require(try events { kind -> PairingExchangeEvent? in
            if case .pairingExchange(let exchange) = kind, exchange.procedure == .pairSetup { return exchange }
            return nil
        }.first)
        #expect(setup.succeeded && setup.checks.allSatisfy { $0.outcome == .passed })
    }

    @Test("Pair-verify M2 as State, PublicKey, EncryptedData opens both sessions")
    func pairVerifyM2() throws {
        let m2s = try events { kind -> PairingMessageEvent? in
            if case .pairingMessage(let message) = kind, message.procedure == .pairVerify, message.state == .m2 { return message }
            return nil
        }
        #expect(m2s.count == 2)
        #expect(m2s.allSatisfy { $0.body.items.map(\.type) == [.state, .publicKey, .encryptedData] && $0.decrypted != nil })
        let sessions = try events { kind -> SessionStartEvent? in
            if case .sessionStarted(let start) = kind { return start }
            return nil
        }
        #expect(sessions.count == 2 && sessions.allSatisfy { $0.decryptable == [.controllerToAccessory, .accessoryToController] })
    }

    @Test("/accessories chunked, Transfer-Encoding before Content-Type, chunks of 0x403 and 0xe6, decodes to the Lightbulb database")
    func chunkedDatabase() throws {
        let responses = try events { kind -> HTTPMessageEvent? in
            if case .httpMessage(let http) = kind, http.request?.target == "/accessories" { return http }
            return nil
        }
        #expect(responses.count == 2)
        for response in responses {
            #expect(response.message.framing == .chunked(chunkCount: 2))
            #expect(response.message.contentLength == nil && response.message.body.count == 0x403 + 0xE6)
            #expect(response.message.endOffset - response.message.startOffset == 1358)
            #expect(Array(response.message.headers).map(\.name) == ["Transfer-Encoding", "Content-Type"])
        }
        let database = try #require(try events { kind -> AccessoryDatabase? in
            if case .accessoryDatabase(let event) = kind { return event.database }
            return nil
        }.first)
        #expect(database.accessories.map(\.aid) == [1])
        let services = database.accessories[0].services
        #expect(services.map(\.iid) == [1, 16, 48])
        // Short UUIDs, and "primary", "hidden" and "linked" on every service.
        #expect(services.map(\.type) == [HAPUUID(appleDefined: 0x3E), HAPUUID(appleDefined: 0xA2), HAPUUID(appleDefined: 0x43)])
        #expect(services.allSatisfy { $0.isPrimary != nil && $0.isHidden != nil && $0.linkedServices != nil })
        // The ADK Version characteristic, hidden, and On as 0/1.
        let on = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 51)))
        #expect(on.format == .bool && on.value == .bool(false))
        let version = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 9)))
        #expect(version.permissions == [.pairedRead, .hidden])
        #expect(database.diagnostics.allSatisfy { $0.severity == .note })
    }

    @Test("Booleans as 0 and 1 in EVENTs and reads; EVENTs coalesced a second apart, only to the subscriber")
    func eventsAndBooleans() throws {
        let activity = try events { kind -> CharacteristicActivity? in
            if case .characteristic(let activity) = kind { return activity }
            return nil
        }
        let notified = activity.filter { $0.kind == .event }
        #expect(notified.map(\.connection.controller.description) == ["10.77.0.1:49202", "10.77.0.1:49202"])
        #expect(notified.map { $0.value?.value } == [.bool(false), .bool(true)])
        let writes = activity.filter { $0.kind == .write }
        #expect(writes.count == 3 && writes.allSatisfy { $0.connection.controller.description == "10.77.0.1:49203" && $0.status == nil })
        #expect(activity.filter { $0.kind == .read }.allSatisfy { $0.value?.issues.isEmpty == true })
    }

    @Test("ADK's TXT record, keys in its order from c#=1, md the model")
    func advertisement() throws {
        let first = try #require(try events { kind -> AdvertisementEvent? in
            if case .advertisement(let advertisement) = kind, advertisement.isResponse { return advertisement }
            return nil
        }.first)
        let txt = try #require(first.service.hap)
        #expect(txt.configurationNumber == 1 && txt.model == "LightBulb1,1" && txt.categoryIdentifier == 5)
        #expect(txt.diagnostics.isEmpty)
        #expect(first.service.txt?.entries.map(\.key) == ["c#", "ff", "id", "md", "pv", "s#", "sf", "ci", "sh"])
    }

    @Test("A failed pair setup says what its controller proof was compared with, and why the accessory refused")
    func refusedProof() throws {
        let exchanges = try RecordedAnalysis("adk-provisioned-salt").events { kind -> PairingExchangeEvent? in
            if case .pairingExchange(let exchange) = kind, exchange.procedure == .pairSetup { return exchange }
            return nil
        }
        let failed = try #require(exchanges.first)
        #expect(failed.outcome == .failed(state: .m4, error: .authentication, retryDelay: nil))
        let proof = try #require(failed.check(.srpControllerProof))
        #expect(proof.outcome == .passed)
        #expect(proof.detail.hasPrefix("the controller's M3 proof matches the controller's K from the key log ("))
        #expect(proof.detail.contains("the K it derived from its own verifier differs"))
        // The setup that succeeded keeps the plain wording.
        #expect(exchanges.last?.check(.srpControllerProof)?.detail.hasPrefix("M3 proof matches K, ") == true)
    }
}
