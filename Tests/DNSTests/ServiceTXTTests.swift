import Testing
@testable import DNS

private func serviceTXT(_ strings: [String], dataOffset: Int = 100) throws -> ServiceTXT {
    let text = try #require(DNSTextStrings(strings: strings.map { Array($0.utf8) }))
    return ServiceTXT(text, dataOffset: dataOffset)
}

@Suite struct ServiceTXTTests {
    @Test func splitsKeysFromValuesAtTheFirstEqualsSign() throws {
        let txt = try serviceTXT(["c#=2", "md=Lamp=1", "paired", "empty="])
        #expect(txt.entries.map(\.key) == ["c#", "md", "paired", "empty"])
        #expect(txt["md"]?.value == Array("Lamp=1".utf8))
        #expect(txt["paired"]?.value == nil)
        #expect(txt.contains("paired"))
        #expect(txt["empty"]?.value == [])
        #expect(txt.diagnostics.isEmpty)
    }

    @Test func recordsTheOffsetOfEachString() throws {
        let txt = try serviceTXT(["c#=2", "ff=0"], dataOffset: 107)
        #expect(txt.entries.map(\.offset) == [107, 112])
    }

    @Test func looksKeysUpIgnoringCase() throws {
        let txt = try serviceTXT(["C#=3"])
        #expect(txt["c#"]?.valueText == "3")
        #expect(txt["C#"]?.key == "C#")
    }

    @Test func keepsTheFirstOccurrenceOfAKeyAndReportsTheRest() throws {
        let txt = try serviceTXT(["sf=1", "SF=0", "sf"])
        #expect(txt.entries.count == 1)
        #expect(txt["sf"]?.valueText == "1")
        #expect(txt.diagnostics == [
            ServiceTXTDiagnostic(offset: 105, kind: .duplicateKey("SF")),
            ServiceTXTDiagnostic(offset: 110, kind: .duplicateKey("sf")),
        ])
    }

    @Test func keepsValuesBinarySafe() throws {
        let text = try #require(DNSTextStrings(strings: [[0x6B, 0x3D, 0x00, 0xFF, 0x3D]]))
        let txt = ServiceTXT(text)
        #expect(txt["k"]?.value == [0x00, 0xFF, 0x3D])
    }

    @Test func ignoresStringsWithoutAKeyAndReportsThem() throws {
        let txt = try serviceTXT(["=orphan", "id=1"])
        #expect(txt.entries.map(\.key) == ["id"])
        #expect(txt.diagnostics == [ServiceTXTDiagnostic(offset: 100, kind: .missingKey)])
    }

    @Test func reportsEmptyStringsAmongOthersButNotTheLoneEmptyString() throws {
        #expect(try serviceTXT([""]).diagnostics.isEmpty)
        #expect(try serviceTXT(["a=1", "", "b=2"]).diagnostics == [ServiceTXTDiagnostic(offset: 104, kind: .emptyString)])
        let none = ServiceTXT(DNSTextStrings(strings: [])!, dataOffset: 50)
        #expect(none.entries.isEmpty)
        #expect(none.diagnostics == [ServiceTXTDiagnostic(offset: 50, kind: .noStrings)])
    }

    @Test func reportsKeysThatBreakTheKeyRules() throws {
        let txt = try serviceTXT(["tenletters=1", "k\u{7}=1"])
        #expect(txt.diagnostics.map(\.kind) == [
            .keyLongerThanNineCharacters("tenletters"), .keyNotPrintableASCII("k\u{FFFD}"),
        ])
    }
}
