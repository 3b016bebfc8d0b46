/// The longest common subsequence of two sequences, found with Myers' O(ND) algorithm and
/// bounded so that very different inputs cost little.
///
/// E. W. Myers, "An O(ND) Difference Algorithm and Its Variations", Algorithmica 1 (1986): the
/// greedy forward search for the furthest-reaching path on each diagonal, here with the trace of
/// every round kept to read the path back. Common leading and trailing elements are matched first
/// and cost nothing but the comparison.
///
/// **Bound.** Finding an alignment with D insertions and deletions costs O((N + M) · D) time and
/// O(D²) memory. The search stops after `maximumEditDistance` rounds: the alignment then keeps the
/// path that got furthest (a common subsequence, though perhaps not the longest) and leaves the
/// rest unmatched, for a coarser alignment (`NDJSONComparison` aligns those records again by
/// identity, then by type) or for pairing by position. With the default of 1000, a decode of
/// N + M records costs at most about 1000 · (N + M) comparisons of interned integers and 4 MB of
/// trace, however different the two sides are; 1000 edits is 500 changed records, far more than a
/// person reads, while a handful of changes in a long capture costs one pass.
public struct SequenceAlignment: Hashable, Sendable {
    /// One element of the old sequence matched with one of the new.
    public struct Match: Hashable, Sendable {
        public let old: Int
        public let new: Int

        public init(old: Int, new: Int) {
            self.old = old
            self.new = new
        }
    }

    /// The default bound on the insertions and deletions searched for.
    public static let defaultMaximumEditDistance = 1000

    /// The matched elements, in increasing order on both sides.
    public let matches: [Match]
    /// Whether the bound stopped the search, so that `matches` may be shorter than the longest
    /// common subsequence.
    public let reachedBound: Bool

    /// Aligns `old[oldRange]` with `new[newRange]`; indexes in `matches` are those of the arrays.
    public init<Key: Hashable>(
        _ old: [Key], _ new: [Key], oldRange: Range<Int>? = nil, newRange: Range<Int>? = nil,
        maximumEditDistance: Int = SequenceAlignment.defaultMaximumEditDistance
    ) {
        // Intern the keys, so that the search compares integers however large the keys are.
        var ids: [Key: Int] = [:]
        func id(_ key: Key) -> Int {
            if let id = ids[key] { return id }
            let id = ids.count
            ids[key] = id
            return id
        }
        let oldRange = oldRange ?? old.indices
        let newRange = newRange ?? new.indices
        let a = old[oldRange].map(id)
        let b = new[newRange].map(id)
        var search = MyersSearch(a, b, maximumEditDistance: max(0, maximumEditDistance))
        let found = search.run()
        matches = found.map { Match(old: oldRange.lowerBound + $0.old, new: newRange.lowerBound + $0.new) }
        reachedBound = search.reachedBound
    }
}

/// The search behind `SequenceAlignment`, over interned keys.
private struct MyersSearch {
    let a: [Int]
    let b: [Int]
    let maximumEditDistance: Int
    private(set) var reachedBound = false

    init(_ a: [Int], _ b: [Int], maximumEditDistance: Int) {
        self.a = a
        self.b = b
        self.maximumEditDistance = maximumEditDistance
    }

    mutating func run() -> [SequenceAlignment.Match] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var matches = (0 ..< prefix).map { SequenceAlignment.Match(old: $0, new: $0) }
        let middle = middleMatches(from: prefix, oldEnd: a.count - suffix, newEnd: b.count - suffix)
        matches += middle
        // The common suffix is matched only when the middle was aligned to its end; otherwise the
        // unmatched stretch runs on to the end of both sides.
        if !reachedBound {
            matches += (0 ..< suffix).map { SequenceAlignment.Match(old: a.count - suffix + $0, new: b.count - suffix + $0) }
        }
        return matches
    }

    /// The furthest x reached on each diagonal k (same parity as d) after round d, k = -d...d,
    /// stored at (k + d) / 2.
    private typealias Round = [Int]

    private mutating func middleMatches(from start: Int, oldEnd: Int, newEnd: Int) -> [SequenceAlignment.Match] {
        let n = oldEnd - start
        let m = newEnd - start
        guard n > 0, m > 0 else { return [] }
        let bound = min(n + m, maximumEditDistance)
        var trace: [Round] = []

        /// Follows equal elements from (x, y) on its diagonal; x after the snake.
        func snake(_ x: Int, _ y: Int) -> Int {
            var x = x, y = y
            while x < n, y < m, a[start + x] == b[start + y] {
                x += 1
                y += 1
            }
            return x
        }

        for d in 0 ... bound {
            var round = Round(repeating: -1, count: d + 1)
            for slot in 0 ... d {
                let k = 2 * slot - d
                let x: Int
                if d == 0 {
                    x = 0
                } else if let origin = Self.origin(d: d, k: k, previous: trace[d - 1], n: n, m: m) {
                    x = origin.x
                } else {
                    continue
                }
                let end = snake(x, x - k)
                round[slot] = end
                if end >= n, end - k >= m {
                    trace.append(round)
                    return pathMatches(trace: trace, d: d, k: k, n: n, m: m, offset: start)
                }
            }
            trace.append(round)
        }
        // The bound is reached: keep the path that got furthest along both sequences.
        reachedBound = true
        let last = trace[bound]
        var best: (k: Int, progress: Int)?
        for slot in 0 ... bound where last[slot] >= 0 {
            let k = 2 * slot - bound
            let progress = 2 * last[slot] - k
            if best.map({ progress > $0.progress }) ?? true { best = (k, progress) }
        }
        guard let best else { return [] }
        return pathMatches(trace: trace, d: bound, k: best.k, n: n, m: m, offset: start)
    }

    /// Where the path on diagonal k in round d starts, before its snake: one step down from
    /// diagonal k + 1 or one step right from k - 1, whichever reaches further and stays in the
    /// grid (down on a tie). Nil when neither can.
    private static func origin(d: Int, k: Int, previous: Round, n: Int, m: Int) -> (x: Int, fromDiagonal: Int)? {
        func reached(_ diagonal: Int) -> Int? {
            guard diagonal >= -(d - 1), diagonal <= d - 1 else { return nil }
            let x = previous[(diagonal + d - 1) / 2]
            return x >= 0 ? x : nil
        }
        var down: Int?
        if let x = reached(k + 1), x - (k + 1) + 1 <= m { down = x }
        var right: Int?
        if let x = reached(k - 1), x + 1 <= n { right = x + 1 }
        switch (down, right) {
        case (let down?, let right?): return down >= right ? (down, k + 1) : (right, k - 1)
        case (let down?, nil): return (down, k + 1)
        case (nil, let right?): return (right, k - 1)
        case (nil, nil): return nil
        }
    }

    /// The matched elements of the path ending on diagonal k after round d, read back through the
    /// trace.
    private func pathMatches(trace: [Round], d: Int, k: Int, n: Int, m: Int, offset: Int) -> [SequenceAlignment.Match] {
        var matches: [SequenceAlignment.Match] = []
        var d = d, k = k
        var x = trace[d][(k + d) / 2]
        while true {
            let start: Int
            var previousDiagonal = k
            if d == 0 {
                start = 0
            } else {
                guard let origin = Self.origin(d: d, k: k, previous: trace[d - 1], n: n, m: m) else { break }
                start = origin.x
                previousDiagonal = origin.fromDiagonal
            }
            // The snake from the origin to x is matched, element by element.
            for step in stride(from: x - 1, through: start, by: -1) {
                matches.append(SequenceAlignment.Match(old: offset + step, new: offset + step - k))
            }
            if d == 0 { break }
            d -= 1
            k = previousDiagonal
            x = trace[d][(k + d) / 2]
        }
        return matches.reversed()
    }
}
