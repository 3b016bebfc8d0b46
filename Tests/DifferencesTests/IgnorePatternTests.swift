import Differences
import Testing

@Suite struct IgnorePatternTests {
    private func path(_ segments: FieldPath.Segment...) -> FieldPath { FieldPath(segments) }

    @Test func aPlainPathNamesOneMemberOfEveryRecord() throws {
        let time = try IgnorePattern("time")
        #expect(time.recordType == nil)
        #expect(time.matches(path(.key("time")), recordType: "characteristic"))
        #expect(time.matches(path(.key("time")), recordType: nil))
        #expect(!time.matches(path(.key("answers"), .key("time")), recordType: "http-message"))
        #expect(!time.matches(.root, recordType: "characteristic"))
    }

    @Test func aRecordTypePrefixLimitsThePattern() throws {
        let value = try IgnorePattern("characteristic:value")
        #expect(value.recordType == "characteristic")
        #expect(value.matches(path(.key("value")), recordType: "characteristic"))
        #expect(!value.matches(path(.key("value")), recordType: "accessory-database"))
        #expect(!value.matches(path(.key("value")), recordType: nil))
        #expect(try IgnorePattern("*:value").recordType == nil)
    }

    @Test func aStarIsOneSegmentAndBracketedStarOneIndex() throws {
        let star = try IgnorePattern("*.time")
        #expect(star.matches(path(.key("answers"), .key("time")), recordType: nil))
        #expect(star.matches(path(.index(3), .key("time")), recordType: nil))
        #expect(!star.matches(path(.key("time")), recordType: nil))
        #expect(!star.matches(path(.key("a"), .key("b"), .key("time")), recordType: nil))
        let index = try IgnorePattern("headers[*].value")
        #expect(index.matches(path(.key("headers"), .index(4), .key("value")), recordType: nil))
        #expect(!index.matches(path(.key("headers"), .key("x"), .key("value")), recordType: nil))
    }

    @Test func aDoubleStarIsAnyDepthNoneIncluded() throws {
        let timestamp = try IgnorePattern("**.timestamp")
        #expect(timestamp.matches(path(.key("timestamp")), recordType: "advertisement"))
        #expect(timestamp.matches(path(.key("steps"), .index(2), .key("timestamp")), recordType: "pairing-exchange"))
        #expect(!timestamp.matches(path(.key("timestamps")), recordType: nil))
        let middle = try IgnorePattern("accessories.**.value")
        #expect(middle.matches(path(.key("accessories"), .key("value")), recordType: nil))
        #expect(middle.matches(path(.key("accessories"), .index(0), .key("services"), .index(1), .key("value")), recordType: nil))
    }

    @Test func theIssuesExampleNamesEveryCharacteristicValueOfADatabase() throws {
        let pattern = try IgnorePattern("accessory-database:accessories[*].services[*].characteristics[*].value")
        let value = path(.key("accessories"), .index(3), .key("services"), .index(1), .key("characteristics"), .index(0), .key("value"))
        #expect(pattern.matches(value, recordType: "accessory-database"))
        #expect(!pattern.matches(value, recordType: "characteristic"))
        #expect(!pattern.matches(value.parent, recordType: "accessory-database"))
    }

    @Test func typeDoubleStarNamesWholeRecords() throws {
        #expect(try IgnorePattern("mdns-query:**").coversRecords(ofType: "mdns-query"))
        #expect(!(try IgnorePattern("mdns-query:**").coversRecords(ofType: "advertisement")))
        #expect(!(try IgnorePattern("mdns-query:queries").coversRecords(ofType: "mdns-query")))
    }

    @Test func quotedKeysAndIndexesAreExact() throws {
        let quoted = try IgnorePattern(#"txt["c.d"]"#)
        #expect(quoted.matches(path(.key("txt"), .key("c.d")), recordType: nil))
        #expect(!quoted.matches(path(.key("txt"), .key("c"), .key("d")), recordType: nil))
        #expect(try IgnorePattern(#"["a:b"]"#).recordType == nil)
        let index = try IgnorePattern("items[2]")
        #expect(index.matches(path(.key("items"), .index(2)), recordType: nil))
        #expect(!index.matches(path(.key("items"), .index(3)), recordType: nil))
        #expect(try IgnorePattern("[0].services").matches(path(.index(0), .key("services")), recordType: nil))
    }

    @Test(arguments: [
        ("", "an empty pattern"),
        ("characteristic:", "no path after the record type"),
        ("a..b", "an empty step"),
        ("a.", "a path cannot end with '.'"),
        ("tim*", "a wildcard stands for a whole step"),
        ("a[", "'[' without ']'"),
        ("a[x]", "brackets hold an index"),
        ("a]", "']' without '['"),
        (#"a["b"#, "a quoted key ends with"),
        ("a[1]b", "expected '.' or '['"),
    ])
    func mistakesAreRefusedWithWhereAndWhy(pattern: String, reason: String) {
        #expect {
            try IgnorePattern(pattern)
        } throws: { error in
            guard let error = error as? IgnorePattern.SyntaxError else { return false }
            return error.reason.hasPrefix(reason) && error.description.contains("'\(pattern)' at character")
        }
    }
}
