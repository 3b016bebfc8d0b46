import Differences
import Foundation
import HAPJSON
import Testing

@Suite struct DifferenceTextTests {
    private let bridge: [String]

    init() throws {
        bridge = try Corpus.expectedLines("bridge")
    }

    private func lines(_ expected: [String], _ decoded: [String]) -> [String] {
        DifferenceText.lines(NDJSONComparison(expected: Corpus.text(expected), decoded: Corpus.text(decoded)))
    }

    @Test func aChangedRecordIsAHeadingAndOneLinePerField() throws {
        var expected = bridge
        expected[36] = expected[36].replacingOccurrences(of: #""value":"Coffee Maker""#, with: #""value":"Kettle""#)
        #expect(lines(expected, bridge) == [
            "line 37: accessory-database #43, connection 2",
            #"  changed accessories[3].services[0].characteristics[3].value (4.5 Name): "Kettle" → "Coffee Maker""#,
            "1 difference in 1 record: 1 changed; by record type: accessory-database 1",
        ])
    }

    @Test func addedRemovedAndMovedRecordsAreOneLineEach() throws {
        var decoded = bridge
        decoded.swapAt(39, 40)
        decoded.remove(at: 5)
        decoded.append(#"{"type":"note","packet":99}"#)
        let found = lines(bridge, decoded)
        #expect(found.count == 4)
        #expect(found[0].hasPrefix(#"line 6 removed: mdns-query #8: {"type":"mdns-query","packet":8,"#))
        #expect(found[0].hasSuffix("…"))
        #expect(found[1] == "line 41 → 39 moved: characteristic #47, connection 2, read 2.10 Brightness"
            || found[1] == "line 40 → 40 moved: characteristic #47, connection 2, read 4.9 On", "\(found[1])")
        #expect(found[2] == #"line 91 added: note #99: {"type":"note","packet":99}"#)
        #expect(found[3] == "3 differences in 3 records: 1 record added, 1 record removed, 1 record moved; by record type: characteristic 1, mdns-query 1, note 1")
    }

    @Test func aLineThatIsNotJSONSaysWhy() {
        let found = lines(["{\"type\":"], [])
        #expect(found.first == #"line 1 removed: a line that is not JSON: not JSON (truncated at byte 8: expected a JSON value): {"type":"#)
    }

    @Test func fieldLinesNameMovesAdditionsAndRemovals() {
        let path = FieldPath([.key("a"), .index(0)])
        #expect(DifferenceText.line(JSONDifference(kind: .moved, oldPath: path, newPath: FieldPath([.key("a"), .index(2)]), old: nil, new: nil), terms: nil)
            == "moved a[0] → a[2]")
        #expect(DifferenceText.line(JSONDifference(kind: .added, oldPath: nil, newPath: path, old: nil, new: .bool(true)), terms: nil)
            == "added a[0]: true")
        #expect(DifferenceText.line(JSONDifference(kind: .removed, oldPath: path, newPath: nil, old: .null, new: nil), terms: nil)
            == "removed a[0]: null")
    }

    @Test func longStringsAreShownFromJustBeforeTheirFirstDifference() {
        let prefix = String(repeating: "x", count: 200)
        let difference = JSONDifference(
            kind: .changed, oldPath: FieldPath([.key("body")]), newPath: FieldPath([.key("body")]),
            old: .string(prefix + "OLD" + prefix), new: .string(prefix + "NEW" + prefix))
        let line = DifferenceText.line(difference, terms: nil)
        #expect(line.hasPrefix("changed body: …" + String(repeating: "x", count: 20) + "OLD"))
        #expect(line.contains(" → …" + String(repeating: "x", count: 20) + "NEW"))
    }

    @Test func longValuesAreCut() {
        let value = JSONValue.string(String(repeating: "y", count: 500))
        #expect(DifferenceText.value(value).count == DifferenceText.valueLength + 1)
        #expect(DifferenceText.value(nil) == "absent")
    }

    @Test func aFindingIsSummarisedByItsRule() throws {
        let finding = try #require(try Corpus.expectedLines("bad-database").firstIndex { $0.hasPrefix(#"{"type":"finding""#) })
        let record = NDJSONRecord(line: finding + 1, text: Substring(try Corpus.expectedLines("bad-database")[finding]))
        #expect(DifferenceText.summary(record).hasPrefix("finding database/"))
    }

    @Test func memberChangesAreRelativeToTheirElement() {
        let base = FieldPath([.key("accessories"), .index(0)])
        let difference = JSONDifference(kind: .changed, oldPath: base.appending("x"), newPath: base.appending("x"), old: .number(JSONNumber(1)), new: .number(JSONNumber(2)))
        #expect(DifferenceText.memberChange(difference, below: base) == "x: 1 → 2")
    }
}
