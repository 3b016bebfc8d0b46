import Differences
import Testing

@Suite struct SequenceAlignmentTests {
    private func pairs(_ alignment: SequenceAlignment) -> [[Int]] {
        alignment.matches.map { [$0.old, $0.new] }
    }

    /// The length of a longest common subsequence, by dynamic programming, to check against.
    private func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var diagonal = 0
            for j in b.indices {
                let above = row[j + 1]
                row[j + 1] = x == b[j] ? diagonal + 1 : max(row[j + 1], row[j])
                diagonal = above
            }
        }
        return row[b.count]
    }

    @Test func equalSequencesMatchEveryElement() {
        let alignment = SequenceAlignment([1, 2, 3], [1, 2, 3])
        #expect(pairs(alignment) == [[0, 0], [1, 1], [2, 2]])
        #expect(!alignment.reachedBound)
    }

    @Test func anInsertedElementShiftsTheRestWithoutBreakingThem() {
        #expect(pairs(SequenceAlignment(["a", "b", "c", "d"], ["a", "b", "x", "c", "d"])) == [[0, 0], [1, 1], [2, 3], [3, 4]])
    }

    @Test func aRemovedElementIsLeftOut() {
        #expect(pairs(SequenceAlignment(["a", "b", "c"], ["a", "c"])) == [[0, 0], [2, 1]])
    }

    @Test func emptySidesMatchNothing() {
        #expect(SequenceAlignment([Int](), [1, 2]).matches.isEmpty)
        #expect(SequenceAlignment([1, 2], [Int]()).matches.isEmpty)
        #expect(SequenceAlignment([1, 2], [3, 4]).matches.isEmpty)
    }

    @Test func rangesAlignPartsAndKeepTheArraysIndexes() {
        let alignment = SequenceAlignment(["x", "a", "b"], ["a", "y", "b"], oldRange: 1 ..< 3, newRange: 0 ..< 3)
        #expect(pairs(alignment) == [[1, 0], [2, 2]])
    }

    @Test func theAlignmentIsALongestCommonSubsequenceOfRandomSequences() {
        var generator = SeededGenerator(seed: 25)
        for _ in 0 ..< 200 {
            let a = (0 ..< Int.random(in: 0 ... 30, using: &generator)).map { _ in Int.random(in: 0 ... 4, using: &generator) }
            let b = (0 ..< Int.random(in: 0 ... 30, using: &generator)).map { _ in Int.random(in: 0 ... 4, using: &generator) }
            let alignment = SequenceAlignment(a, b)
            #expect(alignment.matches.count == lcsLength(a, b), "\(a) \(b)")
            #expect(alignment.matches.allSatisfy { a[$0.old] == b[$0.new] })
            #expect(zip(alignment.matches, alignment.matches.dropFirst()).allSatisfy { $0.old < $1.old && $0.new < $1.new })
        }
    }

    @Test func pastTheBoundOnlyTheCommonStartAndEndAreAligned() {
        // Two sequences that differ everywhere between a common start and a common end, but for
        // repeated elements that a partial path could match far apart.
        let a = [0, 1, 2] + Array(100 ..< 200) + [5, 5, 5] + [7, 8]
        let b = [0, 1, 2] + [5, 5, 5] + Array(300 ..< 400) + [7, 8]
        let bounded = SequenceAlignment(a, b, maximumEditDistance: 10)
        #expect(bounded.reachedBound)
        #expect(pairs(bounded) == [[0, 0], [1, 1], [2, 2], [106, 106], [107, 107]])
        let unbounded = SequenceAlignment(a, b)
        #expect(!unbounded.reachedBound)
        #expect(unbounded.matches.count == 8)
    }

    @Test func withinTheBoundTheAnswerIsExact() {
        let a = Array(0 ..< 50), b = Array(0 ..< 20) + [99] + Array(20 ..< 50)
        let alignment = SequenceAlignment(a, b, maximumEditDistance: 1)
        #expect(!alignment.reachedBound)
        #expect(alignment.matches.count == 50)
    }
}

/// A small deterministic generator (SplitMix64), so random tests repeat.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
