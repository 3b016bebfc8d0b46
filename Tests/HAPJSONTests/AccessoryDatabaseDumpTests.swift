import HAPCatalog
import Testing
@testable import HAPJSON

/// Dumps of accessory databases: where they come from decides how their binary values read and
/// which rules of one transport apply (issue 23, points 2 and 3).
@Suite struct AccessoryDatabaseDumpTests {
    private func dump(_ name: String) throws -> AccessoryDatabaseDump {
        try AccessoryDatabaseDump(bytes: try Fixtures.realDatabase(name))
    }

    @Test func aThreadAccessoryReadByAiohomekitHasHexBinaryValues() throws {
        // Airversa AP2 over Thread: Service Signature characteristics and the Pairing service.
        let airversa = try dump("airversa_ap2")
        #expect(airversa.origin.transport == .bluetoothOrThread)
        #expect(airversa.origin.binaryValues == .hex)
        #expect(airversa.origin.evidence.contains("Service Signature characteristic (A5)"))
        #expect(airversa.origin.ambiguity == nil)
        // Product Data (220) is 8 bytes: as hex, not as the 12 bytes base64 would make of it.
        let productData = try #require(airversa.database.accessories[0].services.lazy.compactMap {
            $0.characteristic(ofType: HAPUUID(appleDefined: 0x220))
        }.first)
        #expect(productData.value == .bytes([0x26, 0x46, 0xE0, 0x00, 0x91, 0xF9, 0x9A, 0x29]))
    }

    @Test func anIPAccessoryDumpKeepsBase64() throws {
        let velux = try dump("velux_window")
        #expect(velux.origin.transport == .ip && velux.origin.binaryValues == .base64)
        let productData = try #require(velux.database.accessories[0].services.lazy.compactMap {
            $0.characteristic(ofType: HAPUUID(appleDefined: 0x220))
        }.first)
        #expect(productData.value == .bytes(Base64.decode("+nvrOv1cCQU=") ?? []))
    }

    @Test func anEncodingInDoubtIsSaid() throws {
        let hexShaped = #"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"220","perms":["pr"],"format":"data","value":"0011223344556677"}]}]}]"#
        let ip = try AccessoryDatabaseDump(bytes: Array(hexShaped.utf8))
        #expect(ip.origin.binaryValues == .base64)
        #expect(ip.origin.ambiguity?.contains("read as hex as well as base64") == true)
        let bluetooth = #"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"A5","perms":["pr"],"format":"data","value":"AQID+w=="}]}]}]"#
        let ble = try AccessoryDatabaseDump(bytes: Array(bluetooth.utf8))
        #expect(ble.origin.binaryValues == .hex)
        #expect(ble.origin.ambiguity?.contains("not hex") == true)
        #expect(ble.database.accessories[0].services[0].characteristics[0].valueIssues == [.invalidHex])
    }

    @Test func servicesAndCharacteristicsSharingIIDsOverBluetoothAreANote() throws {
        // Netatmo's BLE CO alarm, a certified device, numbers three services like characteristics.
        let netatmo = try dump("netamo_smart_co_alarm")
        #expect(netatmo.origin.transport == .bluetoothOrThread)
        let shared = netatmo.database.conformanceIssues(transport: netatmo.origin.transport).filter { $0.code == .duplicateIID }
        #expect(shared.count == 3 && shared.allSatisfy { $0.severity == .note })
        // The same clash in an IP database is a warning; two characteristics sharing one are errors anywhere.
        #expect(netatmo.database.conformanceIssues(transport: .ip).filter { $0.code == .duplicateIID }.allSatisfy { $0.severity == .warning })
    }

    @Test func aiohomekitsBluetoothFormatsAndPairingPermsAreNoFaultOfTheDevice() throws {
        for name in ["airversa_ap2", "netamo_smart_co_alarm"] {
            let read = try dump(name)
            let issues = read.database.conformanceIssues(transport: read.origin.transport)
            #expect(!issues.contains { $0.code == .formatMismatch || $0.code == .invalidPermissions }, "\(name)")
            // Read as an IP database, the same file has them.
            #expect(read.database.conformanceIssues(transport: .ip).contains { $0.code == .formatMismatch }, "\(name)")
        }
    }
}
