import Testing
@testable import HAPCatalog

@Suite struct HAPCatalogTests {
    @Test func categoryNamesAreTheFirstPlainWordingOfEachRow() {
        #expect(HAPCatalog.categoryName(0) == "Bridged accessory")
        #expect(HAPCatalog.categoryName(2) == "Bridge")
        #expect(HAPCatalog.categoryName(5) == "Lightbulb")
        #expect(HAPCatalog.categoryName(16) == "Range Extender")
        #expect(HAPCatalog.categoryName(30) == "Shower System")
        #expect(HAPCatalog.categoryName(32) == "Remote Control")
        #expect(HAPCatalog.categoryName(36) == "TV Streaming Stick")
        #expect(HAPCatalog.categoryName(37) == nil)
        #expect(HAPCatalog.categoryName(-1) == nil)
        #expect((0 ... 36).allSatisfy { HAPCatalog.categoryName($0) != nil })
    }

    @Test func servicesAreFoundByTypeWithTheirCharacteristicLists() throws {
        let information = try #require(HAPCatalog.service(HAPUUID(appleDefined: 0x3E)))
        #expect(information.name == "Accessory Information")
        #expect(information.requiredCharacteristics.compactMap(\.shortForm) == ["52", "14", "20", "21", "23", "30"])
        #expect(information.optionalCharacteristics.compactMap(\.shortForm) == ["A6", "53"])
        let lightbulb = try #require(HAPCatalog.service(HAPUUID("00000043-0000-1000-8000-0026bb765291")!))
        #expect(lightbulb.name == "Lightbulb")
        #expect(lightbulb.requiredCharacteristics == [HAPUUID(appleDefined: 0x25)])
        #expect(HAPCatalog.service(HAPUUID(appleDefined: 0x3F)) == nil)
        #expect(HAPCatalog.service(HAPUUID(appleDefined: 0x26A))?.introduced == nil)
    }

    @Test func characteristicsCarryTheirConstraints() throws {
        let brightness = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x8)))
        #expect(brightness.name == "Brightness")
        #expect(brightness.format == .int)
        #expect(brightness.permissions == [.pairedRead, .pairedWrite, .events])
        #expect(brightness.unit == .percentage)
        #expect((brightness.minimumValue, brightness.maximumValue, brightness.stepValue) == (0, 100, 1))

        let lux = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x6B)))
        #expect(lux.minimumValue == 0.0001)
        #expect(lux.maximumValue == 100_000)
        #expect(lux.stepValue == nil)

        let name = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x23)))
        #expect(name.maximumLength == 64)
        let nightVision = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x11B)))
        #expect(nightVision.permissions.contains(.timedWrite))
        #expect(nightVision.sourceDisagreements?.hasPrefix("perms:") == true)
        #expect(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x138))?.introduced == "iOS 14")
    }

    @Test func validValuesKeepTheirNamesAndGaps() throws {
        let lock = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x1D)))
        #expect(lock.validValues.map(\.value) == [0, 1, 2, 3])
        #expect(lock.name(ofValue: 2) == "JAMMED")
        #expect(lock.name(ofValue: 9) == nil)
        let media = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0xE0)))
        #expect(media.validValues.map(\.value) == [0, 1, 2, 4, 5])
        let remoteKey = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0xE1)))
        #expect(remoteKey.validValues.first { $0.value == 12 } == .init(12, nil))
    }

    @Test func bitFieldsListTheirBitsWhereverTheTableNamesThem() throws {
        let features = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0x4F)))
        #expect(features.validValues.isEmpty)
        #expect(features.validBits == [.init(mask: 1, "SupportsAppleAuthenticationCoprocessor"), .init(mask: 2, "SupportsSoftwareAuthentication")])
        let flags = try #require(HAPCatalog.characteristic(HAPUUID(appleDefined: 0xA6)))
        #expect(flags.validBits == [.init(mask: 1, "REQUIRES_ADDITIONAL_SETUP_BIT_MASK")])
    }

    @Test func nonAppleTypesInTheTablesAreFoundByTheirFullUUID() throws {
        let adkVersion = try #require(HAPCatalog.characteristic(HAPUUID("34ab8811-ac7f-4340-bac3-fd6a85f9943b")!))
        #expect(adkVersion.name == "ADK Version")
        #expect(!adkVersion.type.isAppleDefined)
    }

    @Test func everyServiceListsOnlyKnownCharacteristicsOnce() {
        for service in HAPCatalog.services {
            let listed = service.requiredCharacteristics + service.optionalCharacteristics
            #expect(Set(listed).count == listed.count, "\(service.name)")
            #expect(listed.allSatisfy { HAPCatalog.characteristic($0) != nil }, "\(service.name)")
        }
    }
}
