import Differences
import HAPJSON
import Testing

@Suite struct NDJSONRecordTests {
    @Test func aLineIsReadAsARecordWithItsTypePacketAndConnection() throws {
        let line = try Corpus.expectedLines("bridge")[36]
        let record = NDJSONRecord(line: 37, text: Substring(line))
        #expect(record.type == "accessory-database")
        #expect(record.packet == .number(JSONNumber(43)))
        #expect(record.connection == .number(JSONNumber(2)))
        #expect(record.parseError == nil)
    }

    @Test func aLineThatIsNotJSONKeepsItsTextAndTheReason() {
        let record = NDJSONRecord(line: 3, text: "{\"a\":tru}")
        #expect(record.value == nil)
        #expect(record.type == nil)
        #expect(record.text == "{\"a\":tru}")
        #expect(record.parseError == "malformed at byte 8: expected 'true'")
    }

    @Test func aFinalLineBreakEndsTheLastRecord() {
        #expect(NDJSONRecord.lines(of: "a\nb\n") == ["a", "b"])
        #expect(NDJSONRecord.lines(of: "a\nb") == ["a", "b"])
        #expect(NDJSONRecord.lines(of: "a\n\nb\n") == ["a", "", "b"])
        #expect(NDJSONRecord.lines(of: "").isEmpty)
    }
}
