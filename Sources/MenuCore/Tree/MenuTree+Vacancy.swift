/// Room kept at the end of each `children-cmd` group's subtree, so that the
/// children its command prints fill slots already there instead of moving every node
/// after the group.
///
/// Node numbers are positions in pre-order (``MenuTree``), so a splice that changed a
/// group's slot count would renumber every later node, in every array, dictionary
/// and index keyed by node: at a million nodes, tens of milliseconds for a group
/// near the top (BENCHMARKS.md). A group's subtree is therefore its node, its
/// children, and one block of vacant slots: a splice that fits rewrites only the
/// group's own slots and leaves every other node's number as it was. One that does
/// not fit moves the nodes after it once and leaves as much room again.
///
/// A vacant block is one slot whose size spans the block, then plain slots, all with
/// depth -1 and kind `item`, parented to the group and never indexed by path. Walks
/// that step over subtrees step over it at once; the visibility index counts each
/// vacant slot as hidden under one more collapsed group than its place says, so no
/// row query ever finds it. Everything else that walks slots one by one skips
/// ``isVacant(_:)`` slots.
extension MenuTree {
    /// The room left for a group's children when it is built, or when a splice
    /// outgrew its room.
    static let vacancyReserve = 16

    /// Whether slot `i` is room and not a node.
    package func isVacant(_ i: Int) -> Bool { depths[i] < 0 }

    /// Whether node `i` has children, not counting vacant slots.
    func hasChildren(_ i: Int) -> Bool { childCounts[i] > 0 }

    /// Appends one block of `n` vacant slots under `parent` (-1: a splice's subtree
    /// of new children, whose group is the splice's).
    mutating func appendVacancy(_ n: Int, parent: Int) {
        guard n > 0 else { return }
        let first = count
        let mark = SourceMark(line: 0, column: 0)
        for _ in 0..<n {
            _ = append(parent: parent, depth: -1, position: 0, mark: mark)
            if parent < 0 { roots.removeLast() }
        }
        sizes[first] = Int32(n)
        vacantSlots += n
    }
}
