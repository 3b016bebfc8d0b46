import Differences
import Foundation
import HAPJSON
import Testing

@Suite struct DifferenceJSONTests {
    private func json(_ comparison: NDJSONComparison) throws -> [JSONValue] {
        var writer = JSONWriter()
        writer.beginArray()
        for record in comparison.differences { DifferenceJSON.write(record, into: &writer) }
        writer.endArray()
        return try #require(try Corpus.json(writer.text).arrayValue)
    }

    @Test func aFieldDifferenceCarriesItsRecordPathValuesAndTerms() throws {
        let bridge = try Corpus.expectedLines("bridge")
        var expected = bridge
        let range = try #require(expected[36].range(of: #""value":true"#))
        expected[36].replaceSubrange(range, with: #""value":false"#)
        let entries = try json(NDJSONComparison(expected: Corpus.text(expected), decoded: Corpus.text(bridge)))
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["kind"] == .string("changed"))
        #expect(entry["record"] == (try Corpus.json(#"{"type":"accessory-database","packet":43,"connection":2,"expectedLine":37,"decodedLine":37}"#)))
        #expect(entry["path"] == .string("accessories[3].services[1].characteristics[0].value"))
        #expect(entry["old"] == .bool(false))
        #expect(entry["new"] == .bool(true))
        #expect(entry["accessory"] == (try Corpus.json(#"{"element":"characteristic","aid":4,"iid":9,"name":"On","text":"4.9 On"}"#)))
        #expect(entry["text"] == .string("changed accessories[3].services[1].characteristics[0].value (4.9 On): false → true"))
    }

    @Test func aDatabaseChangeCarriesItsElementInBothDatabasesAndItsMembers() throws {
        let old = try Corpus.json(#"[{"aid":1,"services":[{"iid":8,"type":"43","characteristics":[{"iid":9,"type":"25","perms":["pr"],"format":"bool"}]}]}]"#)
        let new = try Corpus.json(#"[{"aid":1,"services":[{"iid":8,"type":"43","characteristics":[{"iid":19,"type":"25","perms":["pr","pw"],"format":"bool"}]}]}]"#)
        let change = try #require(AccessoryDatabaseComparison(old: old, new: new)?.changes.first)
        var writer = JSONWriter()
        DifferenceJSON.write(change, into: &writer)
        let entry = try Corpus.json(writer.text)
        #expect(entry["kind"] == .string("renumbered") && entry["element"] == .string("characteristic"))
        #expect(entry["old"]?["iid"] == .number(JSONNumber(9)) && entry["new"]?["iid"] == .number(JSONNumber(19)))
        #expect(entry["oldPath"] == .string("[0].services[0].characteristics[0]"))
        #expect(entry["differences"]?.arrayValue?.first?["path"] == .string("[0].services[0].characteristics[0].perms"))
        #expect(entry["text"] == .string(change.description))
    }

    @Test func anAddedRecordCarriesTheRecordItself() throws {
        let bridge = try Corpus.expectedLines("bridge")
        let entries = try json(NDJSONComparison(expected: Corpus.text(Array(bridge.dropLast())), decoded: Corpus.text(bridge)))
        let entry = try #require(entries.first)
        #expect(entry["kind"] == .string("record-added"))
        #expect(entry["new"] == (try Corpus.json(bridge.last!)))
        #expect(entry["record"]?["decodedLine"] == .number(JSONNumber(91)))
        #expect(entry["record"]?["expectedLine"] == nil)
    }

    @Test func theTallyIsCountsByKindAndRecordType() throws {
        var tally = DifferenceTally()
        tally.add([.changed, .recordMoved], recordType: "characteristic")
        var writer = JSONWriter()
        DifferenceJSON.write(tally, into: &writer)
        #expect(try Corpus.json(writer.text) == (try Corpus.json(
            #"{"total":2,"records":1,"byKind":{"changed":1,"record-moved":1},"byRecordType":{"characteristic":2}}"#)))
    }
}
