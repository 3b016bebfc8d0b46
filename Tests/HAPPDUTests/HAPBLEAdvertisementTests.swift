import Testing
import WireParsing
@testable import HAPPDU

@Suite("HAP-BLE advertisements")
struct HAPBLEAdvertisementTests {
    func advertisement(_ bytes: [UInt8]) -> Result<HAPBLEAdvertisement, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPBLEAdvertisement(manufacturerData: &cursor) }
    }

    @Test("A regular advertisement with a setup hash: STL 0x31 (HomeKitADK), fields as aiohomekit reads them")
    func regular() throws {
        // Unpaired, device ID A1:A2:A3:A4:A5:A6, category 10 (sensor), GSN 1, c# 1, CV 2.
        let decoded = try advertisement(hex("06 31 01 a1a2a3a4a5a6 0a00 0100 01 02 c0ffee00")).get()
        guard case .regular(let regular) = decoded else {
            Issue.record("not regular")
            return
        }
        #expect(regular.subtype == 1 && !regular.isPaired && regular.deviceIDText == "A1:A2:A3:A4:A5:A6")
        #expect(regular.category == 10 && regular.globalStateNumber == 1 && regular.configurationNumber == 1)
        #expect(regular.compatibleVersion == 2 && regular.setupHash == hex("c0ffee00"))
    }

    @Test("Without a setup ID the length is 13 (STL 0x2D) and there is no hash")
    func regularWithoutHash() throws {
        guard case .regular(let regular) = try advertisement(hex("06 2d 00 a1a2a3a4a5a6 0500 2a00 03 02")).get() else {
            Issue.record("not regular")
            return
        }
        #expect(regular.isPaired && regular.setupHash == nil && regular.globalStateNumber == 42)
    }

    @Test("An encrypted notification: STL 0x36, advertising ID, 12 encrypted bytes, 4-byte tag")
    func encryptedNotification() throws {
        let bytes = hex("11 36 b1b2b3b4b5b6") + Array(0 ..< 12) + hex("deadbeef")
        guard case .encryptedNotification(let notification) = try advertisement(bytes).get() else {
            Issue.record("not an encrypted notification")
            return
        }
        #expect(notification.advertisingID == hex("b1b2b3b4b5b6") && notification.encryptedPayload == Array(0 ..< 12))
        #expect(notification.truncatedTag == hex("deadbeef"))
    }

    @Test("Wrong lengths are malformed; other Apple types unsupported; every prefix truncated")
    func errors() {
        #expect(advertisement(hex("06 2e 00 a1a2a3a4a5a6 0500 2a00 03 02 00")).error?.code == .malformed)
        #expect(advertisement(hex("11 35") + [UInt8](repeating: 0, count: 21)).error?.code == .malformed)
        #expect(advertisement(hex("02 15") + [UInt8](repeating: 0, count: 21)).error?.code == .unsupported)
        let bytes = hex("06 31 01 a1a2a3a4a5a6 0a00 0100 01 02 c0ffee00")
        for count in 0 ..< bytes.count {
            #expect(advertisement(Array(bytes[..<count])).error == DecodeError(.truncated, layer: .hapPDU, offset: 0, expected: ""))
        }
    }
}
