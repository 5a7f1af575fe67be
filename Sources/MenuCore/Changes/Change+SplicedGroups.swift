/// The groups whose children a change replaced, for a view that shows every node
/// and redraws one submenu rather than the whole menu.
extension Change {
    /// The groups whose children this change replaced, numbered after it,
    /// ascending, each once. A group that a later splice replaced along with its
    /// parent's children is left out: its parent names the rows it stood in.
    public var splicedGroups: [Int] {
        var groups: [Int] = []
        for move in nodeSplices {
            // A group's children follow it in the node list: the splice starts
            // right after the group, in the numbering of its own time.
            groups = groups.compactMap { g in
                if g >= move.start + move.removed { return g + move.inserted - move.removed }
                return g >= move.start ? nil : g
            }
            groups.append(move.start - 1)
        }
        return Array(Set(groups)).sorted()
    }
}
