/// Turning a journal into a ``Change``, and undoing it.
extension ModelCore {
    /// Runs one operation: on success returns what it changed, on failure undoes it.
    /// Inside a batch the batch's journal collects the change instead, and the
    /// operation returns an empty one.
    mutating func mutate(_ body: (inout ModelCore) throws(MenuError) -> Void) throws(MenuError) -> Change {
        if journaling {
            try body(&self)
            return Change()
        }
        beginJournal()
        defer { endJournal() }
        do {
            try body(&self)
        } catch {
            rollBack()
            throw error
        }
        return finishChange()
    }

    mutating func beginJournal() {
        journaling = true
        subtreeCounts.removeAll()
    }

    mutating func endJournal() {
        journaling = false
        journal.removeAll()
    }

    mutating func rollBack() {
        journaling = false
        // Closing before opening keeps each exclusive group's open child consistent.
        for (i, old) in journal.oldExpanded where !old { setExpanded(i, false) }
        for (i, old) in journal.oldExpanded where old { setExpanded(i, true) }
        for (i, old) in journal.oldValues { restoreValue(i, old) }
    }

    mutating func finishChange() -> Change {
        // Written into the last change's arrays, which are this model's alone again
        // once whoever took that change has let it go (the daemon, by the next
        // command): a toggle on every click then allocates nothing for its change.
        // Loops rather than `filter(_:).keys.sorted()`, emptied only when not empty
        // already and sorted only when there are two: a click's change has one node,
        // and those calls would cost more than its splice.
        // Taken out of the model while it is written: the splices are computed by a
        // method of the model, which may not run while one of its fields is being
        // written without the whole model being copied first.
        var change = Change()
        swap(&change, &lastChange)
        change.splices.empty()
        change.expansionChanged.empty()
        change.valueChanged.empty()
        change.nodeSplices.empty()
        for (i, old) in journal.oldExpanded where expanded[i] != old { change.expansionChanged.append(i) }
        if change.expansionChanged.count > 1 { change.expansionChanged.sort() }
        for (i, old) in journal.oldValues where values[i] != old { change.valueChanged.append(i) }
        if change.valueChanged.count > 1 { change.valueChanged.sort() }
        splices(flipped: change.expansionChanged, oldExpanded: journal.oldExpanded, into: &change.splices)
        lastChange = change
        return change
    }

    /// The splices that turn the old visible rows into the new ones, ascending, each
    /// in the coordinates left by the previous one.
    ///
    /// Only subtrees of flipped nodes change. For a flipped node with no flipped node
    /// below it, the change is one block after it whose sizes the visibility index
    /// knows in O(log n); that is every plain expand, collapse or toggle, however
    /// large the group. Nested flips (recursive operations, batches) walk the rows
    /// that are visible before or after, inside the outermost flipped node.
    private func splices(flipped: [Int], oldExpanded: FirstStates<Bool>, into out: inout [Splice]) {
        var k = 0
        while k < flipped.count {
            let top = flipped[k]
            let end = top + tree.size(top)
            var nested = false
            k += 1
            while k < flipped.count, flipped[k] < end {
                nested = true
                k += 1
            }
            // The top node's ancestors did not flip, so it is visible before and
            // after, or neither.
            guard let row = rowIndex(of: top) else { continue }
            if nested {
                diffRows(under: top, row: row, oldExpanded: oldExpanded, into: &out)
            } else {
                // Shown below it: the descendants whose count is its own (0, as it is
                // visible), plus 1 while it is closed.
                let target: Int32 = expanded[top] ? 0 : 1
                let rows =
                    subtreeCounts.count(below: top, equalTo: target)
                    ?? visibility.count(equalTo: target, in: tree.descendants(top))
                let splice =
                    expanded[top]
                    ? Splice(start: row + 1, removed: 0, inserted: rows)
                    : Splice(start: row + 1, removed: rows, inserted: 0)
                if splice.removed + splice.inserted > 0 { out.append(splice) }
            }
        }
    }

    /// Emits the blocks where the old and new rows under visible node `top` differ.
    private func diffRows(under top: Int, row: Int, oldExpanded: FirstStates<Bool>, into out: inout [Splice])
    {
        func wasOpen(_ i: Int) -> Bool { oldExpanded[i] ?? expanded[i] }
        func isOpen(_ i: Int) -> Bool { expanded[i] || !tree.kinds[i].isExpandable }
        // Per open ancestor: where its subtree ends, and whether its children were /
        // are shown.
        var stack: [(end: Int, old: Bool, new: Bool)] = [
            (top + tree.size(top), wasOpen(top) || !tree.kinds[top].isExpandable, isOpen(top))
        ]
        var cursor = row + 1
        var block = Splice(start: cursor, removed: 0, inserted: 0)
        func flush() {
            if block.removed + block.inserted > 0 { out.append(block) }
            block = Splice(start: cursor, removed: 0, inserted: 0)
        }
        var i = top + 1
        while !stack.isEmpty {
            while let last = stack.last, last.end <= i { stack.removeLast() }
            guard let frame = stack.last else { break }
            if tree.isVacant(i) {
                i += tree.size(i)
                continue
            }
            if !frame.old && !frame.new {
                i = frame.end
                continue
            }
            switch (frame.old, frame.new) {
            case (true, true):
                flush()
                cursor += 1
                block.start = cursor
            case (true, false):
                block.removed += 1
            default:
                block.inserted += 1
                cursor += 1
            }
            if tree.size(i) > 1 {
                let expandable = tree.kinds[i].isExpandable
                stack.append(
                    (
                        i + tree.size(i), frame.old && (!expandable || wasOpen(i)),
                        frame.new && (!expandable || expanded[i])
                    ))
            }
            i += 1
        }
        flush()
    }
}
