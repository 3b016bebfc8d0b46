/// Compares an output with its expectation and says where they differ, line by line, so that a
/// failing expectation shows the difference rather than "differs".
public enum ExpectedOutput {
    /// The differing lines of `actual` against `expected`, as `-`/`+` lines with their line
    /// numbers and a line of context around each change; nil when the two are equal.
    ///
    /// Lines common to both ends are set aside first, so the alignment (a longest common
    /// subsequence) only works on what changed; beyond `maximumAligned` lines it falls back to
    /// listing the changed block whole.
    public static func difference(expected: String, actual: String, maximumShown: Int = 40, maximumAligned: Int = 2000) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let removed = Array(old[prefix ..< old.count - suffix])
        let added = Array(new[prefix ..< new.count - suffix])
        var lines: [String] = []
        if prefix > 0 { lines.append("  \(prefix): \(old[prefix - 1])") }
        for edit in edits(removed, added, maximumAligned: maximumAligned) {
            switch edit {
            case .same(let oldIndex, _):
                lines.append("  \(prefix + oldIndex + 1): \(removed[oldIndex])")
            case .removed(let index):
                lines.append("- \(prefix + index + 1): \(removed[index])")
            case .added(let index):
                lines.append("+ \(prefix + index + 1): \(added[index])")
            }
        }
        if suffix > 0 { lines.append("  \(old.count - suffix + 1): \(old[old.count - suffix])") }
        let shown = lines.prefix(maximumShown).map { String($0.prefix(400)) }
        let more = lines.count > maximumShown ? ["… \(lines.count - maximumShown) more lines"] : []
        return (shown + more).joined(separator: "\n")
    }

    private enum Edit {
        case same(Int, Int)
        case removed(Int)
        case added(Int)
    }

    /// A shortest edit of `old` into `new` by longest common subsequence.
    private static func edits(_ old: [Substring], _ new: [Substring], maximumAligned: Int) -> [Edit] {
        guard old.count <= maximumAligned, new.count <= maximumAligned else {
            return old.indices.map(Edit.removed) + new.indices.map(Edit.added)
        }
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                result.append(.same(i, j))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                result.append(.added(j))
                j += 1
            } else {
                result.append(.removed(i))
                i += 1
            }
        }
        return result
    }
}
