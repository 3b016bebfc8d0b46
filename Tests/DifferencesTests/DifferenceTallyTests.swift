import Differences
import Testing

@Suite struct DifferenceTallyTests {
    @Test func countsAreKeptByKindAndRecordType() {
        var tally = DifferenceTally()
        tally.add([.changed, .changed, .added], recordType: "characteristic")
        tally.add([.recordRemoved], recordType: nil)
        tally.add([], recordType: "header")
        #expect(tally.total == 4)
        #expect(tally.records == 2)
        #expect(tally.byKind == [.changed: 2, .added: 1, .recordRemoved: 1])
        #expect(tally.byRecordType == ["characteristic": 3, DifferenceTally.notJSON: 1])
    }

    @Test func theDescriptionListsKindsInTheirOrder() {
        var tally = DifferenceTally()
        #expect(tally.description == "no difference")
        tally.add([.recordMoved], recordType: "a")
        tally.add([.removed, .changed], recordType: "b")
        #expect(tally.description == "3 differences in 2 records: 1 changed, 1 removed, 1 record moved")
        #expect(tally.recordTypesText == "a 1, b 2")
    }

    @Test func oneDifferenceReadsInTheSingular() {
        var tally = DifferenceTally()
        tally.add([.recordAdded], recordType: "a")
        #expect(tally.description == "1 difference in 1 record: 1 record added")
    }

    @Test func kindsHaveStableNames() {
        #expect(DifferenceKind.all.map(\.rawValue) == ["changed", "added", "removed", "moved", "record-added", "record-removed", "record-moved"])
        #expect(DifferenceKind.recordAdded.phrase == "record added")
    }
}
