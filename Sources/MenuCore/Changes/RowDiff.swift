/// Splices between two row lists that need not come from the same tree, such as the
/// rows before and after a config reload, matched by path.
///
/// When the rows the lists share keep their relative order (nodes were added,
/// removed or shown, not moved), each run of differences between shared rows becomes
/// its own splice, as the model's own changes do. When something moved, one splice
/// replaces everything between the common prefix and the common suffix.
public enum RowDiff {
    /// `replacing`: rows of both lists that show something else now, each removed
    /// and inserted again as if it were a new row.
    public static func splices(from old: [String], to new: [String], replacing changed: Set<String> = [])
        -> [Splice]
    {
        guard !changed.isEmpty else { return splices(from: old, to: new) }
        // No path holds a NUL: the new list's changed rows match no old row.
        return splices(from: old, to: new.map { changed.contains($0) ? "\u{0}" + $0 : $0 })
    }

    public static func splices(from old: [String], to new: [String]) -> [Splice] {
        let oldSet = Set(old)
        let newSet = Set(new)
        let sharedOld = old.filter { newSet.contains($0) }
        let sharedNew = new.filter { oldSet.contains($0) }
        if sharedOld == sharedNew { return blocks(old, new, oldSet: oldSet, newSet: newSet) }
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        return [
            Splice(start: prefix, removed: old.count - prefix - suffix, inserted: new.count - prefix - suffix)
        ]
    }

    private static func blocks(_ old: [String], _ new: [String], oldSet: Set<String>, newSet: Set<String>)
        -> [Splice]
    {
        var out: [Splice] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
                continue
            }
            var block = Splice(start: j, removed: 0, inserted: 0)
            while i < old.count, !newSet.contains(old[i]) {
                block.removed += 1
                i += 1
            }
            while j < new.count, !oldSet.contains(new[j]) {
                block.inserted += 1
                j += 1
            }
            out.append(block)
        }
        return out
    }
}
