import Testing
@testable import HAPJSON

@Suite struct JSONPointerTests {
    @Test func keysAreEscapedAsRFC6901Requires() {
        #expect(JSONPointer.appending("accessories", to: "") == "/accessories")
        #expect(JSONPointer.appending(3, to: "/accessories") == "/accessories/3")
        #expect(JSONPointer.appending("a/b~c", to: "/x") == "/x/a~1b~0c")
        #expect(JSONPointer.appending("", to: "") == "/")
    }

    @Test func duplicateKeyPathsEscapeTheirKeys() throws {
        let document = try #require(parseJSON(#"{"a/b":{"k":1,"k":2}}"#).document)
        #expect(document.diagnostics.map(\.path) == ["/a~1b"])
    }
}
