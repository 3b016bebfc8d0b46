import Differences
import Foundation
import HAPJSON
import Testing

/// The comparison `hapscope check` makes, on copies of the bundled captures' expected decodes
/// changed the ways a decode changes.
@Suite struct NDJSONComparisonTests {
    private let bridge: [String]

    init() throws {
        bridge = try Corpus.expectedLines("bridge")
    }

    /// Every record's time one second later, as a clock change would make it (the record's own
    /// `time`, not those of the evidence or steps inside it).
    private var retimed: [String] {
        bridge.map { line in
            guard let range = line.range(of: #","time":"#) else { return line }
            return line.replacingCharacters(in: range, with: #","time":1"#)
        }
    }

    private func compare(_ expected: [String], _ decoded: [String], _ options: NDJSONComparison.Options = .init()) -> NDJSONComparison {
        NDJSONComparison(expected: Corpus.text(expected), decoded: Corpus.text(decoded), options: options)
    }

    @Test func aDecodeEqualToItsExpectationHasNoDifference() {
        let comparison = compare(bridge, bridge)
        #expect(comparison.isEqual)
        #expect(comparison.differences.isEmpty)
        #expect(comparison.expectedRecordCount == 91)
        #expect(comparison.decodedRecordCount == 91)
    }

    /// The issue's scenario: one characteristic value changed inside the 5 kB accessory-database
    /// record.
    @Test func oneChangedValueInTheDatabaseIsOneDifferenceNamedInTheAccessorysTerms() throws {
        var expected = bridge
        let index = try #require(expected[36].range(of: #""value":true"#))
        expected[36].replaceSubrange(index, with: #""value":false"#)
        let comparison = compare(expected, bridge)
        #expect(comparison.tally.total == 1)
        #expect(comparison.tally.byKind == [.changed: 1])
        #expect(comparison.tally.byRecordType == ["accessory-database": 1])
        let record = try #require(comparison.differences.first)
        #expect(record.change == .changed)
        #expect(record.expected?.line == 37)
        #expect(record.decoded?.line == 37)
        #expect(record.recordType == "accessory-database")
        #expect(record.record.packet == .number(JSONNumber(43)))
        let field = try #require(record.fieldDifferences.first)
        #expect(field.path.description == "accessories[3].services[1].characteristics[0].value")
        #expect(field.old == .bool(false))
        #expect(field.new == .bool(true))
        #expect(record.terms(for: field)?.description == "4.9 On")
    }

    @Test func anInsertedRecordIsOneAddedRecordAndEveryLaterOneStillAligns() throws {
        var decoded = bridge
        let inserted = bridge[39].replacingOccurrences(of: #""value":true"#, with: #""value":false"#)
        decoded.insert(inserted, at: 10)
        let comparison = compare(bridge, decoded)
        #expect(comparison.tally.byKind == [.recordAdded: 1])
        let record = try #require(comparison.differences.first)
        #expect(record.change == .added)
        #expect(record.decoded?.line == 11)
        #expect(record.expected == nil)
    }

    @Test func aRemovedRecordIsOneRemovedRecord() throws {
        var decoded = bridge
        decoded.remove(at: 50)
        let comparison = compare(bridge, decoded)
        #expect(comparison.tally.byKind == [.recordRemoved: 1])
        #expect(comparison.differences.first?.expected?.line == 51)
    }

    @Test func twoRecordsSwappedAreOneMove() throws {
        var decoded = bridge
        decoded.swapAt(39, 40)
        let comparison = compare(bridge, decoded)
        #expect(comparison.tally.byKind == [.recordMoved: 1])
        let record = try #require(comparison.differences.first)
        #expect(record.change == .moved)
        #expect(record.expected?.line != record.decoded?.line)
        #expect(record.recordType == "characteristic")
    }

    @Test func aRecordAtAnotherPacketIsAChangedRecordNotARemovedAndAnAddedOne() throws {
        var decoded = bridge
        let index = try #require(bridge.firstIndex { $0.hasPrefix(#"{"type":"pairing-message","packet":17,"#) })
        decoded[index] = decoded[index].replacingOccurrences(of: #""packet":17,"#, with: #""packet":18,"#)
        let comparison = compare(bridge, decoded)
        #expect(comparison.tally.byKind == [.changed: 1])
        #expect(comparison.differences.first?.fieldDifferences.map(\.path.description) == ["packet"])
    }

    @Test func aChangeInEveryRecordIsFoundRecordByRecord() throws {
        let decoded = retimed
        let changed = bridge.filter { $0.contains(#","time":"#) }.count
        let comparison = compare(bridge, decoded)
        #expect(comparison.tally.byKind == [.changed: changed])
        #expect(comparison.tally.records == changed)
        #expect(comparison.differences.allSatisfy { $0.fieldDifferences.map(\.path.description) == ["time"] })
    }

    @Test func ignoredPathsMakeTheSameDecodeEqual() throws {
        let decoded = retimed
        let comparison = compare(bridge, decoded, .init(ignoring: [try IgnorePattern("time")]))
        #expect(comparison.isEqual)
    }

    @Test func recordsOfAnIgnoredTypeTakeNoPart() throws {
        let decoded = bridge.filter { !$0.hasPrefix(#"{"type":"mdns-query""#) }
        #expect(compare(bridge, decoded).tally.byKind == [.recordRemoved: 2])
        #expect(compare(bridge, decoded, .init(ignoring: [try IgnorePattern("mdns-query:**")])).isEqual)
    }

    @Test func aLineThatIsNotJSONIsRemovedWithTheReason() throws {
        var expected = bridge
        expected[5] = "{\"type\":\"mdns-query\",\"packet\":8"
        let comparison = compare(expected, bridge)
        let removed = try #require(comparison.differences.first { $0.change == .removed })
        #expect(removed.expected?.value == nil)
        #expect(removed.expected?.parseError?.hasPrefix("truncated") == true)
        #expect(comparison.tally.byKind == [.recordRemoved: 1, .recordAdded: 1])
        #expect(comparison.tally.byRecordType[DifferenceTally.notJSON] == 1)
    }

    @Test func differencesBeyondTheRetentionAreCountedNotKept() throws {
        let decoded = retimed
        let comparison = compare(bridge, decoded, .init(retainedDifferences: 5))
        #expect(comparison.differences.count == 5)
        #expect(comparison.tally.total > 80)
        #expect(comparison.omittedDifferences == comparison.tally.total - 5)
    }

    @Test func differencesComeInTheOrderOfTheExpectedDecode() throws {
        var decoded = bridge
        decoded.remove(at: 70)
        decoded.insert(bridge[39].replacingOccurrences(of: #""packet":47"#, with: #""packet":470"#), at: 60)
        decoded[20] = decoded[20].replacingOccurrences(of: #""connection":1"#, with: #""connection":7"#)
        let comparison = compare(bridge, decoded)
        let lines = comparison.differences.map { $0.expected?.line ?? -($0.decoded?.line ?? 0) }
        #expect(lines == [21, -61, 71])
    }

    @Test func aLongDecodeWithEveryTenthRecordGoneHasExactlyThoseRemoved() throws {
        let lossy = try Corpus.expectedLines("lossy-link")
        let decoded = lossy.enumerated().filter { $0.offset % 10 != 5 }.map(\.element)
        let comparison = compare(lossy, decoded)
        #expect(comparison.tally.byKind == [.recordRemoved: lossy.count - decoded.count])
    }

    @Test(arguments: [SequenceAlignment.defaultMaximumEditDistance, 4])
    func twoUnrelatedDecodesAreAccountedForRecordByRecord(maximumEditDistance: Int) throws {
        let old = try Corpus.expectedLines("wrong-code"), new = bridge
        let comparison = compare(old, new, .init(maximumEditDistance: maximumEditDistance))
        let added = comparison.tally.byKind[.recordAdded] ?? 0, removed = comparison.tally.byKind[.recordRemoved] ?? 0
        #expect(added - removed == new.count - old.count)
        #expect(!comparison.isEqual)
    }
}

/// Record sequences no decode would hold, which must still be compared in bounded time.
@Suite struct NDJSONComparisonHostileTests {
    @Test func thousandsOfEqualRecordsAgainstThousandsOfOthers() {
        let old = String(repeating: #"{"type":"a","packet":1}"# + "\n", count: 5000)
        let new = String(repeating: #"{"type":"b","packet":2}"# + "\n", count: 5000)
        let comparison = NDJSONComparison(expected: old, decoded: new, options: .init(retainedDifferences: 10))
        #expect(comparison.tally.byKind == [.recordRemoved: 5000, .recordAdded: 5000])
        #expect(comparison.differences.count == 10)
    }

    @Test func linesThatAreNotJSONOrNestTooDeeplyAreRecordsAllTheSame() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let comparison = NDJSONComparison(expected: deep + "\nnot json\n", decoded: "not json\n" + deep + "\n")
        #expect(comparison.tally.byKind == [.recordMoved: 1])
    }
}
