import Testing
@testable import HAPCatalog

@Suite struct HAPUUIDTests {
    @Test func shortAndFullFormsInAnyCaseAreTheSameType() throws {
        let forms = ["3E", "3e", "0000003E", "0000003E-0000-1000-8000-0026BB765291", "0000003e-0000-1000-8000-0026bb765291"]
        let parsed = forms.compactMap(HAPUUID.init)
        #expect(parsed.count == forms.count)
        #expect(Set(parsed) == [HAPUUID(appleDefined: 0x3E)])
    }

    @Test func appleTypesShowTheirShortForm() throws {
        let type = try #require(HAPUUID("0000011A-0000-1000-8000-0026BB765291"))
        #expect(type.isAppleDefined)
        #expect(type.appleShortValue == 0x11A)
        #expect(type.shortForm == "11A")
        #expect(type.displayString == "11A")
        #expect(type.description == "0000011A-0000-1000-8000-0026BB765291")
        #expect(HAPUUID(appleDefined: 0xFFFF_FFFF).description == "FFFFFFFF-0000-1000-8000-0026BB765291")
    }

    @Test func otherTypesKeepTheirFullUpperCaseForm() throws {
        let vendor = try #require(HAPUUID("a8f798e0-4A40-11e6-BDF4-0800200c9a66"))
        #expect(!vendor.isAppleDefined)
        #expect(vendor.shortForm == nil)
        #expect(vendor.displayString == "A8F798E0-4A40-11E6-BDF4-0800200C9A66")
        // One digit off Apple's base (HAA firmware) is not Apple's range.
        #expect(HAPUUID("0000003E-0000-1000-8000-0026BB765292")?.isAppleDefined == false)
        #expect(HAPUUID("0000003E-0001-1000-8000-0026BB765291")?.isAppleDefined == false)
    }

    @Test func malformedTextIsRejected() {
        for text in ["", "G", "123456789", "0000003E-0000-1000-8000-0026BB76529", "0000003E-0000-1000-8000-0026BB7652911",
                     "0000003E00000-1000-8000-0026BB765291", "0000003E-0000-1000-8000_0026BB765291", "-3E", "3E ", "0x3E"] {
            #expect(HAPUUID(text) == nil, "\(text)")
        }
    }

    @Test func typesOrderByTheirBits() throws {
        let types = ["25", "3E", "0000003E-0000-1000-8000-0026BB765290", "1"].compactMap(HAPUUID.init).sorted()
        #expect(types.map(\.displayString) == ["1", "25", "0000003E-0000-1000-8000-0026BB765290", "3E"])
    }
}
