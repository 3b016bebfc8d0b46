import Differences
import Testing

@Suite struct FieldPathTests {
    @Test func keysAreJoinedWithDotsAndIndexesBracketed() {
        let path = FieldPath.root.appending("accessories").appending(1).appending("services").appending(0).appending("value")
        #expect(path.description == "accessories[1].services[0].value")
    }

    @Test func theRootIsEmptyAndAPathMayStartWithAnIndex() {
        #expect(FieldPath.root.description == "")
        #expect(FieldPath.root.isRoot)
        #expect(FieldPath.root.appending(0).appending("services").description == "[0].services")
    }

    @Test func keysThatCouldBeMisreadAreQuotedAsJSONStrings() {
        #expect(FieldPath.root.appending("txt").appending("c#").description == "txt.c#")
        #expect(FieldPath.root.appending("valid-values").description == "valid-values")
        #expect(FieldPath.root.appending("txt").appending("a.b").description == #"txt["a.b"]"#)
        #expect(FieldPath.root.appending("*").description == #"["*"]"#)
        #expect(FieldPath.root.appending("with space").description == #"["with space"]"#)
        #expect(FieldPath.root.appending("quote\"").description == #"["quote\""]"#)
        #expect(FieldPath.root.appending("").description == #"[""]"#)
    }

    @Test func everyPrintedPathReadsBackAsAPatternThatMatchesIt() throws {
        let path = FieldPath([.key("headers"), .index(2), .key("a.b"), .key("x y"), .key("c#"), .index(10)])
        let pattern = try IgnorePattern(path.description)
        #expect(pattern.matches(path, recordType: "http-message"))
        #expect(!pattern.matches(path.parent, recordType: "http-message"))
    }

    @Test func theParentDropsTheLastSegment() {
        #expect(FieldPath([.key("a"), .index(1)]).parent == FieldPath([.key("a")]))
        #expect(FieldPath.root.parent == .root)
    }
}
