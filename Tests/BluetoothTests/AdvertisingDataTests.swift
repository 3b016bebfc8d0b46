import Testing
import WireParsing
@testable import Bluetooth

@Suite("LE advertising data")
struct AdvertisingDataTests {
    /// HomeKitADK's regular advertisement layout: Flags 0x06, Apple manufacturer data of type
    /// 0x06 (HAPBLEAccessoryServer+Advertising.c), then the complete local name.
    static let hapAdvertisement = hex("02 01 06  16 ff 4c00 06 31 01 a1a2a3a4a5a6 0a00 0100 01 02 c0ffee00  05 09 4c616d70")

    func strict(_ bytes: [UInt8]) -> Result<AdvertisingData, DecodeError> {
        decode(bytes, layer: .advertisingData) { (cursor) throws(DecodeError) in try AdvertisingData(parsing: &cursor) }
    }

    @Test("Flags, manufacturer data and the local name of a HAP accessory's advertisement")
    func hapAccessory() throws {
        let data = try strict(Self.hapAdvertisement).get()
        #expect(data.structures.map(\.type) == [.flags, .manufacturerSpecificData, .completeLocalName])
        #expect(data.flags == 0x06)
        #expect(data.manufacturerData.first?.companyID == 0x004C)
        #expect(data.manufacturerData.first?.data.first == 0x06)
        #expect(data.localName?.name == "Lamp" && data.localName?.isComplete == true)
        #expect(data.structures.map(\.offset) == [0, 3, 26])
    }

    @Test("UUID lists, service data and Tx power")
    func uuidsAndServiceData() throws {
        let data = try strict(hex("05 03 0a18 0f18  11 07 915276bb26000080001000003e000000  05 16 0f18 64 00  02 0a f4")).get()
        #expect(data.serviceUUIDs.map(\.description) == ["0x180A", "0x180F", "0000003E-0000-1000-8000-0026BB765291"])
        #expect(data.serviceData.first?.uuid.shortForm == 0x180F && data.serviceData.first?.data == [0x64, 0x00])
        #expect(data.txPowerLevel == -12)
    }

    @Test("A zero length ends the data early: what follows is padding")
    func earlyTermination() throws {
        let data = try strict(hex("02 01 06 00 00 00 00")).get()
        #expect(data.structures.count == 1)
    }

    @Test("A structure past the end is truncated strictly; leniently the ones before it are kept")
    func truncatedStructure() {
        let bytes = hex("02 01 06 05 09 4c61")
        #expect(strict(bytes).error == DecodeError(.truncated, layer: .advertisingData, offset: 0, expected: ""))
        var cursor = ByteCursor(bytes.span.bytes, layer: .advertisingData)
        let lenient = AdvertisingData(parsingLeniently: &cursor)
        #expect(lenient.structures.count == 1 && lenient.problem?.code == .truncated)
        for prefix in prefixes(of: Self.hapAdvertisement) where ![0, 3, 26].contains(prefix.count) {
            #expect(strict(prefix).error?.code == .truncated)
        }
    }

    @Test("More structures than the bound is a limit error")
    func structureLimit() {
        // Length 1, type 0xFE: the smallest structure, one more than the bound allows.
        let bytes = Array([[UInt8]](repeating: [0x01, 0xFE], count: AdvertisingData.maximumStructureCount + 1).joined())
        #expect(strict(bytes).error?.code == .limitExceeded)
    }
}
