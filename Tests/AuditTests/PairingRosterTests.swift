@testable import Audit
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport
import TLV8

@Suite("Pairing roster")
struct PairingRosterTests {
    private static func packet(_ number: Int) -> PacketInfo {
        PacketInfo(number: number, timestamp: Timestamp(seconds: Int64(number), nanoseconds: 0), capturedLength: 60, originalLength: 60)
    }

    @Test("An accessory with no pairing seen is unpaired; pair setup makes its controller an admin")
    func pairSetupCreatesAnAdmin() {
        var roster = PairingRoster()
        #expect(roster.isPaired == false)
        roster.pairSetupCompleted(controllerID: "ABC-1", connectionID: 1, at: Self.packet(25))
        #expect(roster.isPaired == true)
        #expect(roster.pairedSince?.number == 25)
        #expect(roster.entry("abc-1")?.isAdmin == true)
    }

    @Test("Pairing IDs match without regard to case, and a regular user added is not an admin")
    func addedControllers() {
        var roster = PairingRoster()
        roster.pairSetupCompleted(controllerID: "owner", connectionID: 1, at: Self.packet(1))
        roster.added("FDAF6DE3", permissions: .regularUser, connectionID: 2, at: Self.packet(2))
        #expect(roster.entry("fdaf6de3")?.isAdmin == false)
        #expect(roster.count == 2)
        #expect(roster.pairedSince?.number == 1)
    }

    @Test("Removing the last admin removes every pairing")
    func lastAdminRemovesAll() {
        var roster = PairingRoster()
        roster.pairSetupCompleted(controllerID: "owner", connectionID: 1, at: Self.packet(1))
        roster.added("guest", permissions: .regularUser, connectionID: 2, at: Self.packet(2))
        roster.removed("OWNER", at: Self.packet(3))
        #expect(roster.isPaired == false)
        #expect(roster.entry("guest") == nil)
        #expect(roster.pairedSince == nil)
        #expect(roster.emptied?.packet.number == 3 && roster.emptied?.wiped == ["guest"])
        #expect(roster.removedByName == ["owner"])
        roster.pairSetupCompleted(controllerID: "owner", connectionID: 3, at: Self.packet(4))
        #expect(roster.emptied == nil && roster.entry("owner")?.fromPairSetup == true)
    }

    @Test("A removal the capture cannot match leaves the paired state unknown until a List Pairings")
    func anonymousPairings() {
        var roster = PairingRoster()
        roster.pairSetupCompleted(controllerID: nil, connectionID: 1, at: Self.packet(1))
        #expect(roster.isPaired == true)
        roster.removed("someone", at: Self.packet(2))
        #expect(roster.isPaired == nil)
        roster.listed([], connectionID: 1, at: Self.packet(9))
        #expect(roster.isPaired == false)
        let entry = PairingsMessage.PairingEntry(identifier: PairingIdentifier("owner"), publicKey: nil, permissions: .admin)
        roster.listed([entry], connectionID: 1, at: Self.packet(10))
        #expect(roster.isPaired == true && roster.pairedSince?.number == 10)
        #expect(roster.entry("OWNER")?.isAdmin == true)
    }
}
