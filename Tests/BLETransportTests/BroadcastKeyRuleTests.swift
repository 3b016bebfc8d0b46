import Audit
import Bluetooth
import HAPEvents
import HAPPDU
import Packets
import Testing
import TestSupport

/// `session/broadcast-key-expired` reads the lifetime the Bluetooth LE transport judged on an opened
/// encrypted notification (`BLEAdvertisementEvent.broadcastKeyLifetime`); it recomputes nothing.
@Suite("broadcast-key-expired")
struct BroadcastKeyRuleTests {
    static let accessory = BluetoothAddress(wireBytes: [0x6F, 0x5E, 0x4D, 0x3C, 0x2B, 0xE1])
    static let connection = ConnectionInfo(
        id: 1, transport: .bluetoothLE(connectionHandle: 1),
        controller: .bluetooth(BluetoothAddress(wireBytes: [1, 0, 0, 0, 0x77, 0xC0])), accessory: .bluetooth(accessory))

    static func packet(_ number: Int) -> PacketInfo {
        PacketInfo(number: number, timestamp: Timestamp(seconds: Int64(number), nanoseconds: 0), capturedLength: 40, originalLength: 40)
    }

    /// The findings for one opened notification at GSN 32768 whose key lifetime is `verdict`.
    static func findings(_ verdict: BLEBroadcastKeyLifetime.Verdict, generated: Bool = true) -> [Finding] {
        let notification = HAPBLEAdvertisement.EncryptedNotification(
            subtype: 0x11, advertisingID: [0x1A, 0x2B, 0x3C, 0x4D, 0x5E, 0x6F], encryptedPayload: Array(repeating: 0, count: 12),
            truncatedTag: [0, 0, 0, 0])
        let generation = BLEBroadcastKeyLifetime.Generation(connection: connection, packet: packet(300), globalStateNumber: 1, statedIn: packet(400))
        let event = BLEAdvertisementEvent(
            advertiser: accessory, advertisement: .encryptedNotification(notification),
            broadcast: .opened(deviceID: "1A:2B:3C:4D:5E:6F", globalStateNumber: 32768, iid: 51, value: [65, 0, 0, 0, 0, 0, 0, 0]),
            broadcastKeyLifetime: BLEBroadcastKeyLifetime(
                broadcastGlobalStateNumber: 32768, generation: generated ? generation : nil, verdict: verdict))
        let auditor = Auditor()
        auditor.consume(HAPEvent(packet: packet(500), kind: .bleAdvertisement(event)))
        return auditor.findings.filter { $0.rule == .broadcastKeyExpired }
    }

    @Test("An expired key is one finding on the generating connection, at the notification's packet, naming both GSNs")
    func expired() throws {
        let found = Self.findings(.judged(increments: 32767, expirationGSN: 32767, expired: true))
        let finding = try #require(found.first)
        #expect(found.count == 1 && finding.connection?.id == 1 && finding.accessory == "1A:2B:3C:4D:5E:6F")
        #expect(finding.severity == .medium && finding.evidence.map(\.packet?.number) == [500])
        #expect(finding.evidence.first?.detail == "the encrypted notification from E1:2B:3C:4D:5E:6F (IID 51) opened under the broadcast key "
            + "generated on connection 1 at packet #300, with GSN 32768: 32767 increments after GSN 1 (stated in packet #400), past the "
            + "key's expiration GSN 32767")
    }

    @Test("Silent on a key within its lifetime and when the transport could not judge it")
    func silent() {
        #expect(Self.findings(.judged(increments: 32766, expirationGSN: 32767, expired: false)).isEmpty)
        #expect(Self.findings(.generationNotInCapture, generated: false).isEmpty)
        #expect(Self.findings(.generationGSNUnknown).isEmpty)
    }

    @Test("The recorded ble-broadcast-key-expired: one finding on connection 1, which needs the key log")
    func recorded() throws {
        let capture = RecordedCapture("ble/ble-broadcast-key-expired")
        let found = try capture.auditAsTheUserWould().filter { $0.rule == .broadcastKeyExpired }
        #expect(found.count == 1 && found.first?.connection?.id == 1)
        let detail = try #require(found.first?.evidence.first?.detail)
        #expect(detail.contains("with GSN 32768: 32767 increments after GSN 1 (stated in packet #"))
        #expect(!(try capture.audit(keyLog: false)).contains { $0.rule == .broadcastKeyExpired })
    }
}
