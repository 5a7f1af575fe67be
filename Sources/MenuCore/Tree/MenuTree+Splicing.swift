/// Replacing one group's children in place, for a `children-cmd` group whose command
/// printed them: the new nodes go where the old ones were in every array, in the
/// group's vacant room when they fit (MenuTree+Vacancy.swift), so that no other node
/// moves; else the nodes after them move along. The tree is never built again.
extension MenuTree {
    /// Replaces the children of group `g` with the nodes of `children` (complete:
    /// nothing is filled in or cut here), and its vacant room with what is left of
    /// it, or with new room when they do not fit. Returns the old slots below `g`, in
    /// the old numbering, and the new ones; every node after them moved by the
    /// difference in their counts, which is 0 when the children fit.
    mutating func replaceChildren(of g: Int, with children: [NodeSpec]) -> (old: Range<Int>, new: Range<Int>)
    {
        let old = descendants(g)
        var sub = MenuTree(file: file, menus: children)
        // The new children are one list of siblings, the sub-tree's top level.
        sub.assignKeys()
        let room =
            sub.count <= old.count ? old.count - sub.count : Swift.max(MenuTree.vacancyReserve, sub.count)
        sub.appendVacancy(room, parent: -1)
        let new = old.lowerBound..<(old.lowerBound + sub.count)
        let shift = new.count - old.count
        let tail = count - old.upperBound
        let base = new.lowerBound
        let oldVacant = old.reduce(0) { $0 + (isVacant($1) ? 1 : 0) }
        let indexed = old.count - oldVacant

        // Few nodes leave or move (the children fit, or a group near the end of the
        // menu): the path index finds each of them rather than passing over all its
        // slots.
        let moving = shift == 0 ? 0 : tail
        let located =
            (old.count + moving) * 64 < childIndex.capacity
            ? pathStates(old: old, after: moving, of: g) : nil

        // The sparse tables first: they find what moves in the old numbering.
        titleTemplates.splice(removing: old, shift: shift, tail: tail, adding: sub.titleTemplates, at: base)
        subtitles.splice(removing: old, shift: shift, tail: tail, adding: sub.subtitles, at: base)
        icons.splice(removing: old, shift: shift, tail: tail, adding: sub.icons, at: base)
        keywords.splice(removing: old, shift: shift, tail: tail, adding: sub.keywords, at: base)
        onChange.splice(removing: old, shift: shift, tail: tail, adding: sub.onChange, at: base)
        valueSources.splice(removing: old, shift: shift, tail: tail, adding: sub.valueSources, at: base)
        rules.splice(removing: old, shift: shift, tail: tail, adding: sub.rules, at: base)
        initialValues.splice(removing: old, shift: shift, tail: tail, adding: sub.initialValues, at: base)
        childrenCommands.splice(
            removing: old, shift: shift, tail: tail, adding: sub.childrenCommands, at: base)
        refreshIntervals.splice(
            removing: old, shift: shift, tail: tail, adding: sub.refreshIntervals, at: base)
        childrenSources.splice(
            removing: old, shift: shift, tail: tail, adding: sub.childrenSources, at: base)
        confirms.splice(removing: old, shift: shift, tail: tail, adding: sub.confirms, at: base)
        explicitKeys.splice(removing: old, shift: shift, tail: tail, adding: sub.explicitKeys, at: base)

        let depth = depths[g] + 1
        let group = Int32(g)
        let offset = Int32(base)
        ids.replaceSubrange(old, with: sub.ids)
        kinds.replaceSubrange(old, with: sub.kinds)
        parents.replaceSubrange(old, with: sub.parents.lazy.map { $0 < 0 ? group : $0 + offset })
        depths.replaceSubrange(old, with: sub.depths.lazy.map { $0 < 0 ? $0 : $0 + depth })
        sizes.replaceSubrange(old, with: sub.sizes)
        positions.replaceSubrange(old, with: sub.positions)
        childCounts.replaceSubrange(old, with: sub.childCounts)
        titles.replaceSubrange(old, with: sub.titles)
        keys.replaceSubrange(old, with: sub.keys)
        execs.replaceSubrange(old, with: sub.execs)
        initiallyExpanded.replaceSubrange(old, with: sub.initiallyExpanded)
        exclusive.replaceSubrange(old, with: sub.exclusive)
        markLines.replaceSubrange(old, with: sub.markLines)
        markColumns.replaceSubrange(old, with: sub.markColumns)
        childCounts[g] = Int32(children.count)
        vacantSlots += sub.vacantSlots - oldVacant

        if shift != 0 {
            let moved = Int32(shift)
            var a = g
            while a >= 0 {
                sizes[a] += moved
                a = Int(parents[a])
            }
            // A node after the group has its parent before the group (an ancestor of
            // the group, or a node after that) or after it.
            let end = Int32(old.upperBound)
            parents.withUnsafeMutableBufferPointer { parents in
                for j in new.upperBound..<parents.count where parents[j] >= end { parents[j] += moved }
            }
            for k in roots.indices where roots[k] >= old.upperBound { roots[k] += shift }
        }

        var states = [UInt64](repeating: 0, count: sub.count)
        var added: [(node: Int, state: UInt64)] = []
        added.reserveCapacity(sub.nodeCount)
        let groupState = pathState(of: g)
        for k in 0..<sub.count where !sub.isVacant(k) {
            let p = Int(sub.parents[k])
            states[k] = ChildIndex.extend(p < 0 ? groupState : states[p], id: sub.ids[k])
            added.append((base + k, states[k]))
        }
        if !childIndex.splice(removing: old, indexed: indexed, shift: shift, adding: added, located: located)
        {
            buildChildIndex()
        }
        return (old, new)
    }

    /// The nodes of `old`, `g`'s children, and of the `after` slots after them, with
    /// their ``ChildIndex`` hash states; vacant slots, which the index does not hold,
    /// left out.
    private func pathStates(old: Range<Int>, after: Int, of g: Int)
        -> (old: [(node: Int, state: UInt64)], after: [(node: Int, state: UInt64)])
    {
        var states: [Int: UInt64] = [g: pathState(of: g)]
        func located(_ range: Range<Int>) -> [(node: Int, state: UInt64)] {
            range.filter { !isVacant($0) }.map { i in
                let p = Int(parents[i])
                let above = p < 0 ? ChildIndex.root : states[p] ?? pathState(of: p)
                let own = ChildIndex.extend(above, id: ids[i])
                states[i] = own
                return (i, own)
            }
        }
        return (located(old), located(old.upperBound..<(old.upperBound + after)))
    }

    /// The ``ChildIndex`` hash state of node `i`'s path.
    private func pathState(of i: Int) -> UInt64 {
        var chain: [Int] = []
        var n = i
        while n >= 0 {
            chain.append(n)
            n = Int(parents[n])
        }
        return chain.reversed().reduce(ChildIndex.root) { ChildIndex.extend($0, id: ids[$1]) }
    }
}

extension Dictionary where Key == Int {
    /// Follows a splice of the nodes these entries are keyed by: the keys in `old`
    /// go, the `tail` keys after them move by `shift`, and `added`'s keys come in,
    /// counted from `base`. Costs the smaller of the tail and the table, so a group
    /// near the end of a big menu moves few entries.
    mutating func splice(removing old: Range<Int>, shift: Int, tail: Int, adding added: Self, at base: Int) {
        if !isEmpty {
            if shift != 0 && tail >= count {
                var out = Self(minimumCapacity: count + added.count)
                for (k, v) in self where !old.contains(k) { out[k >= old.upperBound ? k + shift : k] = v }
                self = out
            } else {
                if old.count < count {
                    for k in old { removeValue(forKey: k) }
                } else {
                    self = filter { !old.contains($0.key) }
                }
                if shift != 0 {
                    var moved: [(Int, Value)] = []
                    for k in old.upperBound..<(old.upperBound + tail) {
                        if let v = removeValue(forKey: k) { moved.append((k + shift, v)) }
                    }
                    for (k, v) in moved { self[k] = v }
                }
            }
        }
        for (k, v) in added { self[k + base] = v }
    }
}
