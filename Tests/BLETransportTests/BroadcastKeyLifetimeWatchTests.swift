import Bluetooth
import HAPEvents
import Packets
import Testing
@testable import BLETransport

/// The broadcast key's lifetime: 32,767 GSN increments from the GSN the accessory stated at its
/// generation, on the 1…65535 scale that wraps from 65535 to 1 (HomeKitADK
/// HAPBLEAccessoryServer+Broadcast.c).
@Suite("BroadcastKeyLifetimeWatch")
struct BroadcastKeyLifetimeWatchTests {
    static let accessory = GlobalStateNumberWatchTests.accessory
    static let other = BluetoothAddress(wireBytes: [1, 2, 3, 4, 5, 0xC6])

    static func packet(_ number: Int) -> PacketInfo { GlobalStateNumberWatchTests.packet(number) }

    @Test("The expiration GSN is gsn + 32767 − 1, less 65535 above 65535, as HomeKitADK stores it")
    func expirationGSN() {
        #expect(BroadcastKeyLifetimeWatch.expirationGSN(generatedAt: 1) == 32767)
        #expect(BroadcastKeyLifetimeWatch.expirationGSN(generatedAt: 32769) == 65535)
        #expect(BroadcastKeyLifetimeWatch.expirationGSN(generatedAt: 32770) == 1)
        #expect(BroadcastKeyLifetimeWatch.expirationGSN(generatedAt: 40000) == 7231)
        #expect(BroadcastKeyLifetimeWatch.expirationGSN(generatedAt: 65535) == 32766)
    }

    @Test("Increments count on the wrapping 1…65535 scale: 65535 is followed by 1")
    func increments() {
        #expect(BroadcastKeyLifetimeWatch.increments(from: 7, to: 7) == 0)
        #expect(BroadcastKeyLifetimeWatch.increments(from: 1, to: 32768) == 32767)
        #expect(BroadcastKeyLifetimeWatch.increments(from: 65535, to: 1) == 1)
        #expect(BroadcastKeyLifetimeWatch.increments(from: 65000, to: 10) == 545)
        #expect(BroadcastKeyLifetimeWatch.increments(from: 40000, to: 7231) == 32766)
        #expect(BroadcastKeyLifetimeWatch.increments(from: 40000, to: 7232) == 32767)
        // Going back one is almost a whole turn forward.
        #expect(BroadcastKeyLifetimeWatch.increments(from: 10, to: 9) == 65534)
    }

    /// A key generated (no GSN in the answer), then `stated` GSNs, then a notification at `gsn`.
    static func lifetime(stated: [UInt16], notification gsn: UInt16) -> BLEBroadcastKeyLifetime {
        var watch = BroadcastKeyLifetimeWatch(maximumAccessories: 4)
        watch.stated(3, by: accessory, packet: packet(1))  // before the generation: not counted from
        watch.generated(by: accessory, on: GlobalStateNumberWatchTests.connection(1), packet: packet(2), statedGSN: nil)
        for (index, stated) in stated.enumerated() { watch.stated(stated, by: accessory, packet: packet(3 + index)) }
        return watch.notification(gsn, from: accessory)
    }

    @Test("Counted from the first GSN stated after the generation; expired from 32,767 increments on, across the wrap")
    func judged() throws {
        let last = Self.lifetime(stated: [40000, 40001], notification: 7231)
        #expect(last.verdict == .judged(increments: 32766, expirationGSN: 7231, expired: false) && !last.isExpired)
        #expect(last.generation?.globalStateNumber == 40000 && last.generation?.statedIn?.number == 3)
        #expect(last.generation?.connection.id == 1 && last.generation?.packet.number == 2)
        let expired = Self.lifetime(stated: [40000], notification: 7232)
        #expect(expired.verdict == .judged(increments: 32767, expirationGSN: 7231, expired: true) && expired.isExpired)
        #expect(Self.lifetime(stated: [4], notification: 5).verdict == .judged(increments: 1, expirationGSN: 32770, expired: false))
    }

    @Test("A Get-All-Params answered in the generating request gives the GSN itself; a later generation replaces the key")
    func sameRequestAndRegeneration() {
        var watch = BroadcastKeyLifetimeWatch(maximumAccessories: 4)
        watch.generated(by: Self.accessory, on: GlobalStateNumberWatchTests.connection(1), packet: Self.packet(1), statedGSN: 100)
        watch.stated(200, by: Self.accessory, packet: Self.packet(2))
        #expect(watch.notification(32867, from: Self.accessory).verdict == .judged(increments: 32767, expirationGSN: 32866, expired: true))
        watch.generated(by: Self.accessory, on: GlobalStateNumberWatchTests.connection(2), packet: Self.packet(3), statedGSN: 30000)
        let renewed = watch.notification(32867, from: Self.accessory)
        #expect(renewed.generation?.connection.id == 2 && !renewed.isExpired)
    }

    @Test("Not judged without the generation in the capture, nor without a GSN stated after it")
    func unknown() {
        var watch = BroadcastKeyLifetimeWatch(maximumAccessories: 4)
        watch.stated(5, by: Self.accessory, packet: Self.packet(1))
        #expect(watch.notification(40000, from: Self.accessory).verdict == .generationNotInCapture)
        watch.generated(by: Self.accessory, on: GlobalStateNumberWatchTests.connection(1), packet: Self.packet(2), statedGSN: nil)
        let unstated = watch.notification(40000, from: Self.accessory)
        #expect(unstated.verdict == .generationGSNUnknown && unstated.generation?.globalStateNumber == nil)
        #expect(watch.notification(40000, from: Self.other).verdict == .generationNotInCapture)
    }

    @Test("At most maximumAccessories accessories are remembered: the oldest is forgotten")
    func bounded() {
        var watch = BroadcastKeyLifetimeWatch(maximumAccessories: 1)
        watch.generated(by: Self.accessory, on: GlobalStateNumberWatchTests.connection(1), packet: Self.packet(1), statedGSN: 1)
        watch.generated(by: Self.other, on: GlobalStateNumberWatchTests.connection(2), packet: Self.packet(2), statedGSN: 1)
        #expect(watch.notification(40000, from: Self.accessory).verdict == .generationNotInCapture)
        #expect(watch.notification(40000, from: Self.other).isExpired)
    }
}
