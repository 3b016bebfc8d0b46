/// The longest common subsequence of two sequences, found with Myers' O(ND) algorithm and
/// bounded so that very different inputs cost little.
///
/// E. W. Myers, "An O(ND) Difference Algorithm and Its Variations", Algorithmica 1 (1986): the
/// greedy forward search for the furthest-reaching path on each diagonal, here with the trace of
/// every round kept to read the path back. Common leading and trailing elements are matched first
/// and cost nothing but comparing them.
///
/// **Bound.** Finding an alignment with D insertions and deletions costs O((N + M) · D) time and
/// O(D²) memory (the trace). The search gives up after `maximumEditDistance` rounds: the
/// alignment then holds only the common leading and trailing elements, and the middle is left
/// unaligned, whole, for a coarser alignment (`NDJSONComparison` aligns those records again by
/// identity, then by type) or for pairing by position. A partial path would be a common
/// subsequence, but one whose matches between repeated elements (two identical header records
/// 500 records apart) can shift everything after them; an honest "too different here" serves
/// the next pass better. Where the sides differ almost everywhere, snakes are short and a failed
/// search costs about D²/2 steps, not (N + M) · D. With the default of 1000 (500 changed records,
/// far more than a person reads), that is half a million steps and 4 MB of trace at most.
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
    /// Whether the bound stopped the search, so that only the common leading and trailing elements
    /// are matched.
    public let reachedBound: Bool

    /// Aligns `old[oldRange]` with `new[newRange]`; indexes in `matches` are those of the arrays.
    public init<Key: Hashable>(
        _ old: [Key], _ new: [Key], oldRange: Range<Int>? = nil, newRange: Range<Int>? = nil,
        maximumEditDistance: Int = SequenceAlignment.defaultMaximumEditDistance
    ) {
        let oldRange = oldRange ?? old.indices
        let newRange = newRange ?? new.indices
        // Common leading and trailing elements are matched by comparing them; only the middle is
        // interned, so that the search compares integers however large the keys are.
        var prefix = 0
        while prefix < oldRange.count, prefix < newRange.count, old[oldRange.lowerBound + prefix] == new[newRange.lowerBound + prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < oldRange.count - prefix, suffix < newRange.count - prefix,
              old[oldRange.upperBound - 1 - suffix] == new[newRange.upperBound - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = oldRange.lowerBound + prefix ..< oldRange.upperBound - suffix
        let newMiddle = newRange.lowerBound + prefix ..< newRange.upperBound - suffix
        var ids: [Key: Int] = [:]
        func id(_ key: Key) -> Int {
            if let id = ids[key] { return id }
            let id = ids.count
            ids[key] = id
            return id
        }
        var search = MyersSearch(old[oldMiddle].map(id), new[newMiddle].map(id), maximumEditDistance: max(0, maximumEditDistance))
        let middle = search.run()
        matches = (0 ..< prefix).map { Match(old: oldRange.lowerBound + $0, new: newRange.lowerBound + $0) }
            + middle.map { Match(old: oldMiddle.lowerBound + $0.old, new: newMiddle.lowerBound + $0.new) }
            + (0 ..< suffix).map { Match(old: oldMiddle.upperBound + $0, new: newMiddle.upperBound + $0) }
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

    /// The furthest x reached on each diagonal k (same parity as d) after round d, k = -d...d,
    /// stored at (k + d) / 2.
    private typealias Round = [Int]

    /// The matches of a shortest edit script from `a` to `b`; none when the bound is reached.
    mutating func run() -> [SequenceAlignment.Match] {
        let n = a.count
        let m = b.count
        guard n > 0, m > 0 else { return [] }
        let bound = min(n + m, maximumEditDistance)
        var trace: [Round] = []

        /// Follows equal elements from (x, y) on its diagonal; x after the snake.
        func snake(_ x: Int, _ y: Int) -> Int {
            var x = x, y = y
            while x < n, y < m, a[x] == b[y] {
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
                    return pathMatches(trace: trace, d: d, k: k, n: n, m: m)
                }
            }
            trace.append(round)
        }
        // The bound is reached: the middle is left to whoever aligns it next.
        reachedBound = true
        return []
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
    private func pathMatches(trace: [Round], d: Int, k: Int, n: Int, m: Int) -> [SequenceAlignment.Match] {
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
                matches.append(SequenceAlignment.Match(old: step, new: step - k))
            }
            if d == 0 { break }
            d -= 1
            k = previousDiagonal
            x = trace[d][(k + d) / 2]
        }
        return matches.reversed()
    }
}
