import Differences
import HAPJSON
import Testing

@Suite struct JSONComparatorTests {
    private func differences(_ old: String, _ new: String, _ comparator: JSONComparator = JSONComparator()) throws -> [String] {
        try comparator.differences(from: Corpus.json(old), to: Corpus.json(new)).map { DifferenceText.line($0, terms: nil) }
    }

    @Test func equalValuesHaveNoDifference() throws {
        #expect(try differences(#"{"a":[1,{"b":null}]}"#, #"{"a":[1,{"b":null}]}"#).isEmpty)
    }

    @Test func aChangedMemberIsNamedByItsPath() throws {
        #expect(try differences(#"{"a":{"b":1,"c":"x"}}"#, #"{"a":{"b":2,"c":"x"}}"#) == ["changed a.b: 1 → 2"])
        #expect(try differences(#"{"a":1}"#, #"{"a":"1"}"#) == [#"changed a: 1 → "1""#], "another JSON type is a change")
        #expect(try differences(#"{"a":{"b":1}}"#, #"{"a":[1]}"#) == [#"changed a: {"b":1} → [1]"#])
    }

    @Test func addedAndRemovedMembersAreSaidSo() throws {
        #expect(try differences(#"{"a":1,"b":2}"#, #"{"a":1,"c":3}"#) == ["removed b: 2", "added c: 3"])
    }

    @Test func numbersAreEqualAsWrittenUnlessAskedToCompareValues() throws {
        #expect(try differences(#"{"a":100}"#, #"{"a":100.0}"#) == ["changed a: 100 → 100.0"])
        #expect(try differences(#"{"a":100}"#, #"{"a":100.0}"#, JSONComparator(comparesNumbersByValue: true)).isEmpty)
    }

    @Test func anInsertedElementIsOneDifferenceAndTheRestStillAlign() throws {
        #expect(try differences(#"{"x":[{"k":1},{"k":2},{"k":3}]}"#, #"{"x":[{"k":1},{"k":9},{"k":2},{"k":3}]}"#)
            == [#"added x[1]: {"k":9}"#])
        #expect(try differences(#"{"x":["a","b","c","d","e","f","g","h","i"]}"#, #"{"x":["a","b","c","d","e","f","g","h"]}"#)
            == [#"removed x[8]: "i""#])
    }

    @Test func elementsBetweenAlignedOnesArePairedByPosition() throws {
        #expect(try differences(#"{"x":[{"k":1},{"k":2,"v":"a"},{"k":3}]}"#, #"{"x":[{"k":1},{"k":2,"v":"b"},{"k":3}]}"#)
            == [#"changed x[1].v: "a" → "b""#])
    }

    @Test func elementsWithAnIdentityAreAlignedByIt() throws {
        let old = #"{"accessories":[{"aid":1,"v":1},{"aid":2,"v":2},{"aid":3,"v":3}]}"#
        let new = #"{"accessories":[{"aid":1,"v":1},{"aid":3,"v":30},{"aid":4,"v":4}]}"#
        #expect(try differences(old, new) == [
            #"removed accessories[1]: {"aid":2,"v":2}"#,
            "changed accessories[2].v: 3 → 30",
            #"added accessories[2]: {"aid":4,"v":4}"#,
        ])
    }

    @Test func anElementOutOfOrderMovedAndIsStillCompared() throws {
        let old = #"{"s":[{"iid":1,"v":1},{"iid":2,"v":2},{"iid":3,"v":3}]}"#
        let new = #"{"s":[{"iid":2,"v":2},{"iid":3,"v":3},{"iid":1,"v":10}]}"#
        let found = try JSONComparator().differences(from: Corpus.json(old), to: Corpus.json(new))
        #expect(found.map(\.kind) == [.moved, .changed])
        #expect(found[0].oldPath?.description == "s[0]")
        #expect(found[0].newPath?.description == "s[2]")
        #expect(found[1].oldPath?.description == "s[0].v")
        #expect(found[1].newPath?.description == "s[2].v")
        #expect(try differences(#"{"x":[[1],[2],[3]]}"#, #"{"x":[[2],[3],[1]]}"#) == ["moved x[0] → x[2]"])
    }

    @Test func shortArraysOfScalarsAreOneValue() throws {
        #expect(try differences(#"{"perms":["pr","pw","ev"]}"#, #"{"perms":["pr","ev"]}"#) == [#"changed perms: ["pr","pw","ev"] → ["pr","ev"]"#])
        let long = (0 ..< 12).map(String.init).joined(separator: ",")
        #expect(try differences("{\"a\":[\(long)]}", "{\"a\":[\(long),12]}") == ["added a[12]: 12"])
    }

    @Test func ignoredPathsAndWhatTheyHoldDoNotCount() throws {
        let comparator = JSONComparator(ignoring: [try IgnorePattern("**.time"), try IgnorePattern("body")])
        #expect(try differences(#"{"time":1,"body":{"x":1},"answers":{"time":2,"n":1}}"#,
                                #"{"time":5,"body":{"x":2},"answers":{"time":3,"n":2}}"#, comparator) == ["changed answers.n: 1 → 2"])
        #expect(try differences(#"{"a":1}"#, #"{"a":1,"time":9}"#, comparator).isEmpty, "an ignored member may come and go")
    }

    @Test func patternsLimitedToARecordTypeApplyOnlyToIt() throws {
        let pattern = try IgnorePattern("characteristic:value")
        var comparator = JSONComparator(ignoring: [pattern], recordType: "characteristic")
        #expect(try differences(#"{"value":1}"#, #"{"value":2}"#, comparator).isEmpty)
        comparator.recordType = "http-message"
        #expect(try differences(#"{"value":1}"#, #"{"value":2}"#, comparator) == ["changed value: 1 → 2"])
    }

    @Test func ignoredElementsDoNotDisturbTheAlignment() throws {
        let comparator = JSONComparator(ignoring: [try IgnorePattern("x[*].t")])
        #expect(try differences(#"{"x":[{"a":1,"t":1},{"a":2,"t":1}]}"#, #"{"x":[{"a":0,"t":9},{"a":1,"t":9},{"a":2,"t":9}]}"#, comparator)
            == [#"added x[0]: {"a":0,"t":9}"#])
    }

    @Test func normalizedLeavesOutWhatIsIgnored() throws {
        let comparator = JSONComparator(ignoring: [try IgnorePattern("b"), try IgnorePattern("c[1]")])
        #expect(comparator.normalized(try Corpus.json(#"{"a":1,"b":2,"c":[1,2,3]}"#)) == (try Corpus.json(#"{"a":1,"c":[1,3]}"#)))
    }

    @Test func aRepeatedKeyCountsOnceWithItsLastValue() throws {
        #expect(try differences(#"{"a":1,"a":2}"#, #"{"a":2}"#).isEmpty)
    }

    @Test func pathsStartWhereTheValuesSit() throws {
        let base = FieldPath([.key("accessories"), .index(2)])
        let found = JSONComparator().differences(from: try Corpus.json(#"{"v":1}"#), to: try Corpus.json(#"{"v":2}"#), oldPath: base, newPath: base)
        #expect(found.first?.path.description == "accessories[2].v")
    }
}
