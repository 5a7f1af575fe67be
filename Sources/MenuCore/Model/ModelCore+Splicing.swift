/// Replacing one group's children, for a `children-cmd` group whose command's output
/// arrived, without building the model again.
extension ModelCore {
    /// Replaces group `g`'s children with `filled`, as ``MenuModel`` documents it.
    /// The children come filled (``NodeSpec/filled(_:under:depth:filling:)``), so that
    /// no caller's closure runs while the state is being accessed.
    mutating func replaceChildren(of g: Int, withFilled filled: [NodeSpec]) -> (
        change: Change, dropped: [DroppedState]
    ) {
        precondition(!journaling, "replaceChildren(of:with:filling:) runs outside commands and batches")

        // The old children's state by path, and their rows when the group shows them.
        let rowBase = expanded[g] ? rowIndex(of: g).map { $0 + 1 } : nil
        let oldNodes = rowBase == nil ? [] : visibleNodes(in: tree.descendants(g))
        let oldRows = oldNodes.map { tree.path($0) }
        var oldLooks: [String: Row] = [:]
        for (i, p) in zip(oldNodes, oldRows) { oldLooks[p] = look(of: i) }
        var oldExpanded: [String: Bool] = [:]
        var oldValues: [String: Value] = [:]
        var entries: [StateEntry] = []
        for i in tree.descendants(g) where !tree.isVacant(i) {
            let p = tree.path(i)
            if tree.kinds[i].isExpandable {
                oldExpanded[p] = expanded[i]
                if expanded[i] != tree.initiallyExpanded[i] {
                    entries.append(StateEntry(path: p, field: .expanded(expanded[i])))
                }
            }
            if let v = values[i] {
                oldValues[p] = v
                if v != tree.initialValues[i] {
                    entries.append(StateEntry(path: p, field: .value(v.description)))
                }
            }
        }

        let (old, new) = tree.replaceChildren(of: g, with: filled)
        search.splice(old: old, new: new, in: tree)
        revision &+= 1
        let fits = old.count == new.count
        if fits {
            // Only the group's own slots have new nodes (the children fit its room):
            // what is kept for them goes, and the group's row, whose child count changed.
            rowChanged(g)
            for i in old { rowChanged(i) }
        } else {
            // Every node after the group has a new number: what is kept by number goes.
            numbering &+= 1
            rowVersions.replaceSubrange(old, with: repeatElement(0, count: new.count))
        }
        let shift = new.count - old.count
        let tail = tree.count - new.upperBound
        expanded.replaceSubrange(old, with: tree.initiallyExpanded[new])
        var initial: [Int: Value] = [:]
        for i in new { if let v = tree.initialValues[i] { initial[i - new.lowerBound] = v } }
        values.splice(removing: old, shift: shift, tail: tail, adding: initial, at: new.lowerBound)
        // The new children's sources have not been read: the daemon marks them.
        stale.splice(removing: old, shift: shift, tail: tail, adding: [:], at: new.lowerBound)
        spliceVisibility(of: g, old: old, new: new)
        var kept = referencing.filter { $0 < old.lowerBound }
        kept += referencing.lazy.filter { $0 >= old.upperBound }.map { $0 + shift }
        kept += new.filter {
            !(tree.titleTemplates[$0]?.references ?? []).isEmpty
                || !(tree.subtitles[$0]?.references ?? []).isEmpty
        }
        referencing = kept.sorted()
        indexReaders()
        // A title elsewhere may read a value in the group.
        if fits { for i in referencing { rowChanged(i) } }

        // The old children's state, as ``importState(_:)`` applies it.
        let (_, dropped) = importState(entries)

        var change = Change(nodeSplices: [
            Splice(start: old.lowerBound, removed: old.count, inserted: new.count)
        ])
        if let rowBase {
            // A row that stays but shows something else (a new title, say) is
            // replaced, so that whoever keeps rows fetches it again.
            let newNodes = visibleNodes(in: new)
            let newRows = newNodes.map { tree.path($0) }
            var changed: Set<String> = []
            for (i, p) in zip(newNodes, newRows) where oldLooks[p].map({ $0 != look(of: i) }) ?? false {
                changed.insert(p)
            }
            change.splices = RowDiff.splices(from: oldRows, to: newRows, replacing: changed).map {
                Splice(start: $0.start + rowBase, removed: $0.removed, inserted: $0.inserted)
            }
        }
        for i in new where !tree.isVacant(i) {
            let p = tree.path(i)
            if tree.kinds[i].isExpandable, expanded[i] != (oldExpanded[p] ?? false) {
                change.expansionChanged.append(i)
            }
            if let v = values[i], v != oldValues[p] { change.valueChanged.append(i) }
        }
        return (change, dropped)
    }

    /// Follows the tree's splice of `g`'s children (`old` before, `new` after) in the
    /// visibility index and the exclusive groups' open children, where
    /// ``indexVisibility()`` would walk the whole tree.
    private mutating func spliceVisibility(of g: Int, old: Range<Int>, new: Range<Int>) {
        let shift = new.count - old.count
        let base = visibility.value(at: g) + (tree.kinds[g].isExpandable && !expanded[g] ? 1 : 0)
        var counts: [Int32] = []
        counts.reserveCapacity(new.count)
        var closedEnds: [Int] = []
        for i in new {
            while let end = closedEnds.last, end <= i { closedEnds.removeLast() }
            counts.append(base + Int32(closedEnds.count) + (tree.isVacant(i) ? 1 : 0))
            if tree.kinds[i].isExpandable && !expanded[i] && tree.size(i) > 1 {
                closedEnds.append(i + tree.size(i))
            }
        }
        visibility.replace(old, with: counts)
        subtreeCounts.removeAll()

        var open: [Int: Int] = [:]
        for (p, c) in openChild where !old.contains(p) && !old.contains(c) {
            open[p >= old.upperBound ? p + shift : p] = c >= old.upperBound ? c + shift : c
        }
        for i in new where expanded[i] {
            if let p = tree.parent(i), tree.exclusive[p] { open[p] = i }
        }
        openChild = open
    }

    /// The nodes of `range`, a whole subtree or run of siblings' subtrees whose
    /// parent shows its children, that are visible relative to it.
    private func visibleNodes(in range: Range<Int>) -> [Int] {
        var out: [Int] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if tree.isVacant(i) {
                i += tree.size(i)
                continue
            }
            out.append(i)
            i += tree.kinds[i].isExpandable && !expanded[i] ? tree.size(i) : 1
        }
        return out
    }

    /// What node `i`'s row shows of the node itself: its kind, title, subtitle, icon,
    /// bounds and access key (a new sibling can take its default key). Its expansion
    /// and value are told by a change's records of their own, and its place among its
    /// siblings moves whenever one is added.
    private func look(of i: Int) -> Row {
        var row = makeRow(i, index: nil)
        row.expanded = nil
        row.value = nil
        row.selected = nil
        row.stale = false
        row.staleReason = nil
        row.position = 0
        row.siblings = 0
        row.children = 0
        row.exec = nil
        return row
    }
}
