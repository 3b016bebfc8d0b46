import Differences
import Foundation
import Testing
import TestSupport

@Suite struct ExpectedDecodeTests {
    @Test func anEqualDecodePasses() throws {
        let bridge = try Corpus.expectedDecode("bridge")
        #expect(ExpectedDecode.failureMessage(decoded: bridge, expected: bridge, name: "bridge.ndjson") == nil)
        ExpectedDecode.expect(bridge, equals: bridge, name: "bridge.ndjson")
    }

    @Test func aFailureListsTheDifferencesFieldByField() throws {
        let bridge = try Corpus.expectedDecode("bridge")
        let decoded = bridge.replacingOccurrences(of: #""name":"Coffee Maker""#, with: #""name":"Tea Maker""#)
        let message = try #require(ExpectedDecode.failureMessage(decoded: decoded, expected: bridge, name: "bridge.ndjson"))
        #expect(message == """
            the decode differs from bridge.ndjson (expected → decoded):
              line 37: accessory-database #43, connection 2
                changed accessories[3].name (accessory 4 Coffee Maker): "Coffee Maker" → "Tea Maker"
              1 difference in 1 record: 1 changed; by record type: accessory-database 1
            """)
    }

    @Test func aFailureShowsABoundedNumberOfDifferences() throws {
        let lines = try Corpus.expectedLines("lossy-link")
        let decoded = Corpus.text(lines.enumerated().filter { $0.offset % 3 != 1 }.map(\.element))
        let message = try #require(ExpectedDecode.failureMessage(decoded: decoded, expected: Corpus.text(lines), name: "lossy-link.ndjson"))
        #expect(message.split(separator: "\n").count == 1 + ExpectedDecode.shownDifferences + 2)
        #expect(message.contains("more differences not shown"))
    }
}
