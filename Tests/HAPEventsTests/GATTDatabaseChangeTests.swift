import HAPCatalog
import HAPEvents
import Testing

@Suite("A change to a HAP-BLE accessory's GATT database, as findings and JSON word it")
struct GATTDatabaseChangeTests {
    static let battery = GATTAttribute(kind: .service, type: HAPUUID(appleDefined: 0x96), handles: 0x004F...0x005D, instanceID: 64)
    static let brightness = GATTAttribute(kind: .characteristic, type: HAPUUID(appleDefined: 0x08), handles: 0x0015...0x0015, instanceID: nil)

    @Test("an attribute names its kind, its type with the catalogue's name, where discovery listed it and its instance ID once read")
    func attributeSummary() {
        #expect(Self.battery.summary == "service 96 (Battery) at handles 0x004F–0x005D, iid 64")
        #expect(Self.brightness.summary == "characteristic 8 (Brightness) at handle 0x0015")
        let unknown = GATTAttribute(kind: .service, type: HAPUUID(appleDefined: 0xFFF0), handles: 0x0100...0x0104, instanceID: nil)
        #expect(unknown.summary == "service FFF0 at handles 0x0100–0x0104")
    }

    @Test("each kind of change says what happened to the attribute", arguments: [
        (GATTDatabaseChange.added(battery), "service 96 (Battery) at handles 0x004F–0x005D, iid 64 added"),
        (.removed(brightness), "characteristic 8 (Brightness) at handle 0x0015 removed"),
        (.redefined(from: brightness, to: GATTAttribute(kind: .characteristic, type: HAPUUID(appleDefined: 0x08), handles: 0x0015...0x0015, instanceID: 60)),
         "characteristic 8 (Brightness) at handle 0x0015 became characteristic 8 (Brightness) at handle 0x0015, iid 60"),
        (.signatureChanged(instanceID: 66), "the signature of characteristic 66 changed"),
    ])
    func changeSummary(_ change: GATTDatabaseChange, _ summary: String) {
        #expect(change.summary == summary)
    }
}
