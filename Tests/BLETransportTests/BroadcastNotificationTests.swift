import Foundation
import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
import HAPPDU
import Testing
import TestSupport
import WireParsing
@testable import BLETransport

@Suite("Encrypted notification advertisements opened with the broadcast key")
struct BroadcastNotificationTests {
    static let key = [UInt8](repeating: 0x42, count: 32)
    static let advertisingID: [UInt8] = [0x1A, 0x2B, 0x3C, 0x4D, 0x5E, 0x6F]

    /// A notification sealed as HomeKitADK HAPBLEAccessoryServer+Advertising.c seals one: GSN,
    /// IID and 8 value bytes under the broadcast key, nonce the GSN, AAD the advertising ID, the
    /// first 4 tag bytes sent.
    static func notification(gsn: UInt16, iid: UInt16, value: [UInt8], key: [UInt8] = key) throws -> HAPBLEAdvertisement.EncryptedNotification {
        let plaintext = [UInt8(gsn & 0xFF), UInt8(gsn >> 8), UInt8(iid & 0xFF), UInt8(iid >> 8)] + value
        let sealed = ChaCha20Poly1305.seal(
            plaintext.span.bytes, key: try ChaCha20Poly1305.Key(SecretBytes(key)), nonce: ChaCha20Poly1305.Nonce(counter: UInt64(gsn)),
            authenticating: advertisingID.span.bytes)
        return HAPBLEAdvertisement.EncryptedNotification(
            subtype: 1, advertisingID: advertisingID, encryptedPayload: Array(sealed[..<12]), truncatedTag: Array(sealed[12..<16]))
    }

    /// An opener with the keys as a key log gives them (its device id in lower case).
    static func opener(keys: [[UInt8]] = [key], gsnSearch: Int = 100) throws -> BroadcastNotificationOpener {
        let log = try KeyLog(parsing: keys.map { "BROADCAST_KEY 1a:2b:3c:4d:5e:6f \(Hex.encode($0))\n" }.joined(), source: "k")
        return BroadcastNotificationOpener(keys: log.broadcastKeys, gsnSearch: gsnSearch, maximumAccessories: 4)
    }

    @Test("The GSN after the last advertised opens it: the accessory, the GSN, the IID and the value bytes")
    func opened() throws {
        var opener = try Self.opener()
        opener.advertised(globalStateNumber: 3, deviceID: "1A:2B:3C:4D:5E:6F")
        let value: [UInt8] = [0x41, 0, 0, 0, 0, 0, 0, 0]
        #expect(opener.open(try Self.notification(gsn: 4, iid: 51, value: value))
            == .opened(deviceID: "1A:2B:3C:4D:5E:6F", globalStateNumber: 4, iid: 51, value: value))
        // The opened GSN is now the last known: the next one opens from it.
        #expect(opener.open(try Self.notification(gsn: 5, iid: 51, value: value)) != .notOpened(keysTried: 1, globalStateNumbersTried: 100))
    }

    @Test("A GSN beyond the search, a wrong key, or a changed tag byte does not open it")
    func notOpened() throws {
        var opener = try Self.opener(gsnSearch: 10)
        opener.advertised(globalStateNumber: 3, deviceID: "1A:2B:3C:4D:5E:6F")
        let value = [UInt8](repeating: 0, count: 8)
        #expect(opener.open(try Self.notification(gsn: 20, iid: 51, value: value)) == .notOpened(keysTried: 1, globalStateNumbersTried: 10))
        var wrongKey = try Self.opener(keys: [[UInt8](repeating: 0x43, count: 32)])
        #expect(wrongKey.open(try Self.notification(gsn: 1, iid: 51, value: value)) == .notOpened(keysTried: 1, globalStateNumbersTried: 100))
        var tampered = try Self.notification(gsn: 1, iid: 51, value: value)
        tampered.truncatedTag[3] ^= 1
        var fresh = try Self.opener()
        #expect(fresh.open(tampered) == .notOpened(keysTried: 1, globalStateNumbersTried: 100))
        var keyless = BroadcastNotificationOpener(keys: [], gsnSearch: 100, maximumAccessories: 4)
        #expect(keyless.open(tampered) == .noKey)
    }

    @Test("GSNs are tried as aiohomekit tries them: the next, the last, then onwards, wrapping from 65535 to 1")
    func candidates() {
        #expect(BroadcastNotificationOpener.candidates(after: 3, count: 4) == [4, 3, 5, 6])
        #expect(BroadcastNotificationOpener.candidates(after: 65534, count: 4) == [65535, 65534, 1, 2])
        #expect(BroadcastNotificationOpener.candidates(after: nil, count: 3) == [1, 2, 3])
    }

    @Test("lamp: the broadcast of the truth opens byte for byte, and is Brightness's event from the accessory, typed by the database")
    func lamp() throws {
        let analysis = try BLEAnalysis("lamp")
        let truth = try #require(analysis.truth["broadcasts"]?.arrayValue?.first)
        let plaintext = try #require(truth["plaintext"]?.stringValue.flatMap { Hex.decode($0) })
        let openings = analysis.payloads { if case .bleAdvertisement(let value) = $0 { value.broadcast } else { nil } }
        #expect(openings == [.opened(deviceID: "1A:2B:3C:4D:5E:6F", globalStateNumber: UInt16(plaintext[0]) | UInt16(plaintext[1]) << 8,
                                     iid: UInt16(plaintext[2]) | UInt16(plaintext[3]) << 8, value: Array(plaintext[4...]))])
        #expect(truth["gsn"]?.numberValue?.int64Value == 4)
        let broadcastIndex = try #require(analysis.events.firstIndex { if case .bleAdvertisement(let value) = $0.kind { value.broadcast != nil } else { false } })
        guard case .characteristic(let activity) = analysis.events[broadcastIndex + 1].kind else {
            Issue.record("no characteristic event follows the opened broadcast")
            return
        }
        #expect(activity.kind == .event)
        #expect(activity.id == CharacteristicID(aid: 1, iid: UInt64(try #require(truth["iid"]?.numberValue?.int64Value))))
        #expect(activity.deviceID == "1A:2B:3C:4D:5E:6F")
        #expect(activity.name == "Brightness")
        #expect(activity.format == .int)
        #expect(activity.value?.value == .integer(65))
        #expect(activity.connection.transport.name == "ble")
        #expect(activity.connection.accessory.description == "E1:2B:3C:4D:5E:6F")
        #expect(activity.connection.id == 2, "the latest LE connection to the accessory")
    }

    @Test("lamp without the key log: the broadcast is not opened, said once, and no event is made of it")
    func lampWithoutKeys() throws {
        let analysis = try BLEAnalysis("lamp", withKeys: false)
        let openings = analysis.payloads { if case .bleAdvertisement(let value) = $0 { value.broadcast } else { nil } }
        #expect(openings == [.noKey])
        let problems = analysis.payloads { if case .problem(let value) = $0 { value } else { nil } }.filter { $0.message.contains("encrypted notifications") }
        #expect(problems.count == 1)
        let broadcastIndex = try #require(analysis.events.firstIndex { if case .bleAdvertisement(let value) = $0.kind { value.broadcast != nil } else { false } })
        if case .characteristic? = analysis.events.dropFirst(broadcastIndex + 1).first?.kind { Issue.record("an unopened broadcast made an event") }
    }
}
