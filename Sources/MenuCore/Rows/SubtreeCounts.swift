/// What the visibility index answered for the subtrees the current operation
/// flipped, as it added over them (``VisibilityIndex/add(_:over:)``): the least
/// count below each flipped node and how many nodes have it. A plain toggle's splice
/// is that count, so the change need not walk the index a second time.
///
/// An answer holds only until another addition meets its range; subtrees nest or
/// are apart, so meeting is containing or being contained. A few are kept (an
/// exclusive group's toggle flips two nodes); a recursive operation's thousands are
/// not, and those subtrees are queried as before.
struct SubtreeCounts {
    private var entries = [(node: Int, range: Range<Int>, minimum: Int32, count: Int)](
        repeating: (-1, 0..<0, 0, 0), count: 4)
    /// How many of `entries` hold answers: they are overwritten in place, as every
    /// click comes through here.
    private var used = 0

    /// The index added over `range`, the descendants of `node`, and answered
    /// `minimum` and `count` for it.
    mutating func note(_ node: Int, range: Range<Int>, minimum: Int32, count: Int) {
        forget(range)
        guard used < entries.count else { return }
        entries[used] = (node, range, minimum, count)
        used += 1
    }

    /// An addition over `range`: the answers it meets are stale.
    private mutating func forget(_ range: Range<Int>) {
        var kept = 0
        for k in 0..<used where !entries[k].range.overlaps(range) {
            entries[kept] = entries[k]
            kept += 1
        }
        used = kept
    }

    /// How many descendants of `node` have count `target`, if still known.
    func count(below node: Int, equalTo target: Int32) -> Int? {
        for k in 0..<used where entries[k].node == node {
            return entries[k].minimum == target ? entries[k].count : 0
        }
        return nil
    }

    mutating func removeAll() { used = 0 }
}
