@testable import Audit
import HAPCore
import HAPCatalog
import HAPEvents
import Testing
import TestSupport

/// The discovery rules on `bad-discovery`, `paired-setup` and `bad-database`.
@Suite("Discovery rules")
struct DiscoveryRuleTests {
    private static let instance = "hapscope Bridge 4D5E6F._hap._tcp.local"

    @Test("srv-without-address names the first announcement and its SRV target")
    func serviceWithoutAddress() throws {
        let finding = try #require(try RecordedCapture("bad-discovery").auditAsTheUserWould().first { $0.rule == .serviceWithoutAddress })
        #expect(finding.accessory == Self.instance)
        #expect(finding.evidence.count == 1)
        #expect(finding.evidence.first?.packet?.number == 1)
        #expect(finding.evidence.first?.detail.contains("hapscope-Bridge-4D5E6F.local") == true)
    }

    @Test("txt-malformed names id, pv and ci of the second announcement with their offsets")
    func malformedTXT() throws {
        let finding = try #require(try RecordedCapture("bad-discovery").auditAsTheUserWould().first { $0.rule == .txtMalformed })
        let evidence = try #require(finding.evidence.first)
        #expect(finding.evidence.count == 1)
        #expect(evidence.packet?.number == 3)
        for words in ["byte 138: pv=1", "byte 143: id=hapscope-4D5E6F", "byte 177: ci=99"] {
            #expect(evidence.detail.contains(words))
        }
    }

    @Test("gsn-not-bumped names the read, both values and connections, and the GSN that stood still; it needs the key log")
    func globalStateNumberNotBumped() throws {
        let capture = RecordedCapture("ble/ble-gsn-not-bumped")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .globalStateNumberNotBumped })
        #expect(finding.connection?.id == 2 && finding.evidence.count == 1)
        // Packet numbers move with the advertising timing of a re-recording; the story does not.
        let detail = try #require(finding.evidence.first?.detail)
        #expect(detail.hasPrefix("the first read of 1.50 (On) (request at packet #"))
        #expect(detail.contains(") on connection 2 gave true, where connection 1 had seen false, yet the accessory advertised GSN 1 "
            + "before connection 1 and still in packet #"))
        #expect(detail.hasSuffix(": the characteristic notifies in the disconnected state, so its change had to increment the GSN "
            + "(a disconnected event)"))
        // Without the key log the values of the secured reads are not known: nothing is judged.
        #expect(!(try capture.audit(keyLog: false)).contains { $0.rule == .globalStateNumberNotBumped })
    }

    /// A connection that closed, carrying (or not) the transport's finding of a changed database.
    private static func closed(_ connection: ConnectionInfo, change: UnannouncedDatabaseChange?) -> HAPEvent {
        HAPEvent(packet: .numbered(90), kind: .connectionClosed(ConnectionSummary(
            connection: connection, deviceID: nil, reason: .closed, handshakeSeen: true, firstPacket: .numbered(40), lastPacket: .numbered(90),
            tcp: [:], frames: [:], encrypted: true, decrypted: [], carried: .bluetoothLE(.init(attPDUs: 60, hapPDUs: 4)),
            unannouncedDatabaseChange: change)))
    }

    @Test("config-number-unchanged reads the transport's fact of a changed database: its packet, the changes and the CN")
    func configurationNumberUnchangedFromTheTransport() throws {
        let auditor = Auditor()
        let change = UnannouncedDatabaseChange(
            deviceID: "1a:2b:3c:4d:5e:6f", earlierConnection: .example(1), configurationNumber: 1, advertisementPacket: .numbered(35),
            packet: .numbered(47), changes: [
                .added(GATTAttribute(kind: .service, type: HAPUUID(appleDefined: 0x96), handles: 0x004F...0x005E, instanceID: nil)),
                .signatureChanged(instanceID: 66),
            ])
        auditor.consume(Self.closed(.example(1), change: nil))
        auditor.consume(Self.closed(.example(2), change: change))
        let finding = try #require(auditor.findings.only)
        #expect(finding.rule == .configurationNumberUnchanged && finding.connection?.id == 2)
        #expect(finding.accessory == AuditContext.accessoryKey(deviceID: "1A:2B:3C:4D:5E:6F"))
        #expect(finding.evidence.map(\.packet?.number) == [47])
        #expect(finding.evidence.first?.detail == "the GATT database read on connection 2 differs from what the earlier connections "
            + "read under the same configuration number (the last of them connection 1) (2 change(s): service 96 (Battery) at handles "
            + "0x004F–0x005E added, "
            + "the signature of characteristic 66 changed), yet the accessory advertised CN 1 before both, last in packet #35")
    }

    @Test("config-number-unchanged over HAP-BLE: the recorded Battery service added on connection 2 under CN 1")
    func configurationNumberUnchangedOverBLE() throws {
        let finding = try #require(try RecordedCapture("ble/ble-configuration-number-unchanged").auditAsTheUserWould()
            .first { $0.rule == .configurationNumberUnchanged })
        #expect(finding.connection?.id == 2 && finding.evidence.count == 1)
        let detail = try #require(finding.evidence.first?.detail)
        #expect(detail.hasPrefix("the GATT database read on connection 2 differs from what the earlier connections read under the "
            + "same configuration number (the last of them connection 1) (1 change(s): service 96 (Battery) at handles 0x"))
        #expect(detail.contains(" added), yet the accessory advertised CN 1 before both, last in packet #"))
    }

    @Test("setup-hash-mismatch gives the advertised and the expected hash, and needs the setup ID")
    func setupHash() throws {
        let capture = RecordedCapture("bad-discovery")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .setupHashMismatch })
        #expect(finding.evidence.first?.detail == "sh=5WgZ0g== for id=1A:2B:3C:4D:5E:6F, but SHA-512(\"HSCP\" ‖ "
            + "\"1A:2B:3C:4D:5E:6F\") gives sh=YHi/lA==")
        #expect(!(try capture.audit()).contains { $0.rule == .setupHashMismatch })
        #expect(!(try capture.audit(setupID: "WXYZ")).contains { $0.rule == .setupHashMismatch && $0.evidence.contains {
            $0.detail.contains("id=1A:2B:3C:4D:5E:6F")
        } })
    }

    @Test("ff-mismatch names the Method 0 M1 on 49201 against the advertised ff=1")
    func featureFlags() throws {
        let finding = try #require(try RecordedCapture("bad-discovery").auditAsTheUserWould().first { $0.rule == .featureFlagMismatch })
        #expect(finding.connection?.controller.description == "10.77.0.1:49201")
        #expect(finding.evidence.first?.detail.contains("uses PairSetup (0)") == true)
        #expect(finding.evidence.first?.detail.contains("ff=1") == true)
    }

    @Test("sf-unpaired-while-paired counts the sf=1 advertisements after the grace period, and none with a longer one")
    func statusFlags() throws {
        let capture = RecordedCapture("paired-setup")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .statusFlagUnpairedWhilePaired })
        #expect(finding.accessory == Self.instance)
        #expect(finding.evidence.reduce(0) { $0 + $1.occurrences } == 3)
        #expect(finding.evidence.allSatisfy { $0.detail.hasPrefix("advertised sf=1") })
        var patient = AuditThresholds()
        patient.statusFlagGracePeriod = 5
        #expect(!(try capture.audit(thresholds: patient)).contains { $0.rule == .statusFlagUnpairedWhilePaired })
    }

    @Test("config-number-unchanged names the second /accessories response and the accessory it added")
    func configurationNumber() throws {
        let finding = try #require(try RecordedCapture("bad-database").auditAsTheUserWould()
            .first { $0.rule == .configurationNumberUnchanged })
        let evidence = try #require(finding.evidence.first)
        #expect(evidence.packet?.number == 56)
        #expect(evidence.detail.contains("accessory aid 12 added") && evidence.detail.contains("c#=2"))
    }
}
