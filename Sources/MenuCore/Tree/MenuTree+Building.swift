/// How a ``MenuTree`` is filled. The config decoder appends each node when its
/// mapping starts, so that pre-order falls out of the file order, and fills in the
/// node's fields when the mapping ends; no intermediate tree of specs exists. The
/// decoder is MenuConfigLoading's, so what it calls here, and the tree's fields it
/// fills, are `package`: open to that module, not to the model's users.
extension MenuTree {
    /// Appends a node with empty fields and returns its number. Its size stays 1
    /// until ``close(_:childCount:)``.
    package mutating func append(parent: Int, depth: Int, position: Int, mark: SourceMark) -> Int {
        let i = count
        ids.append("")
        kinds.append(.item)
        parents.append(Int32(parent))
        depths.append(Int32(depth))
        sizes.append(1)
        positions.append(Int32(position))
        childCounts.append(0)
        titles.append("")
        keys.append(0)
        execs.append(nil)
        initiallyExpanded.append(false)
        exclusive.append(false)
        markLines.append(Int32(truncatingIfNeeded: mark.line))
        markColumns.append(Int32(truncatingIfNeeded: mark.column))
        if parent < 0 { roots.append(i) }
        return i
    }

    package func mark(_ i: Int) -> SourceMark {
        SourceMark(line: Int(markLines[i]), column: Int(markColumns[i]))
    }

    /// Makes room for the nodes a config of `bytes` bytes likely has, so that a
    /// big config's arrays are not copied as they grow, a large share of the load
    /// time at 1M nodes (BENCHMARKS.md, "Notes"). The guess is high on purpose, which costs
    /// address space only (pages never written are never resident); a config
    /// denser than that still loads, its arrays growing past the guess.
    package mutating func reserveCapacity(forBytes bytes: Int) {
        let nodes = bytes / MenuTree.bytesPerNode
        guard nodes > 1024 else { return }
        ids.reserveCapacity(nodes)
        kinds.reserveCapacity(nodes)
        parents.reserveCapacity(nodes)
        depths.reserveCapacity(nodes)
        sizes.reserveCapacity(nodes)
        positions.reserveCapacity(nodes)
        childCounts.reserveCapacity(nodes)
        titles.reserveCapacity(nodes)
        keys.reserveCapacity(nodes)
        execs.reserveCapacity(nodes)
        initiallyExpanded.reserveCapacity(nodes)
        exclusive.reserveCapacity(nodes)
        markLines.reserveCapacity(nodes)
        markColumns.reserveCapacity(nodes)
    }

    /// Fewer bytes than any hand-written node takes with its title and one more
    /// key (`- title: A\n  exec: a\n` is 23).
    static let bytesPerNode = 24

    /// Ends node `i`: everything appended since it is its subtree.
    package mutating func close(_ i: Int, childCount: Int) {
        sizes[i] = Int32(count - i)
        childCounts[i] = Int32(childCount)
    }

    /// Sets a title, keeping plain text out of the template table: most titles have
    /// no placeholders, and one array of segments each would double a big menu.
    package mutating func setTitle(_ i: Int, _ title: TitleTemplate) {
        if title.isLiteral {
            titles[i] = title.segments.map { if case .literal(let s) = $0 { s } else { "" } }.joined()
            titleTemplates[i] = nil
        } else {
            titles[i] = ""
            titleTemplates[i] = title
        }
    }

    /// Builds the lookup by path once every node is in place. Only a tree that is
    /// served needs it, so `menud --check` never builds it.
    mutating func buildChildIndex() {
        childIndex = ChildIndex(ids: ids, parents: parents, depths: depths)
    }

    /// Flattens specs assembled in code (tests, the daemon's filled-in `children-cmd`
    /// groups). An explicit stack rather than recursion: specs are deep only by
    /// mistake, but a mistake must not overflow the stack.
    init(file: String, menus: [NodeSpec]) {
        self.init(file: file)
        var stack: [(spec: NodeSpec, parent: Int, depth: Int, position: Int)] = []
        for (i, menu) in menus.enumerated().reversed() { stack.append((menu, -1, 0, i)) }
        var open: [Int] = []
        while let (spec, parent, depth, position) = stack.popLast() {
            while let last = open.last, last != parent {
                closeSpec(last)
                open.removeLast()
            }
            let i = append(parent: parent, depth: depth, position: position, mark: spec.mark)
            let confirming = spec.kind == .item && spec.exec != nil && spec.confirm != nil
            let children = confirming ? NodeSpec.answers(mark: spec.mark) : spec.children
            ids[i] = spec.id
            kinds[i] = confirming ? .group : spec.kind
            if confirming { confirms[i] = spec.confirm }
            childCounts[i] = Int32(children.count)
            setTitle(i, spec.title)
            if let s = spec.subtitle { subtitles[i] = s }
            if let s = spec.icon { icons[i] = s }
            if !spec.keywords.isEmpty { keywords[i] = spec.keywords.joined(separator: " ") }
            if let s = spec.exec { execs[i] = s }
            if let k = spec.key.flatMap(MenuTree.keyByte) { explicitKeys[i] = k }
            if let s = spec.onChange { onChange[i] = s }
            if let s = spec.source { valueSources[i] = s }
            if let s = spec.childrenCommand { childrenCommands[i] = s }
            if let s = spec.refresh { refreshIntervals[i] = s }
            if let s = spec.childrenFrom { childrenSources[i] = s }
            if let r = spec.rule { rules[i] = r }
            if let v = spec.value ?? spec.rule?.defaultValue { initialValues[i] = v }
            initiallyExpanded[i] = spec.kind.isExpandable && spec.expanded
            exclusive[i] = spec.kind == .group && spec.exclusive
            open.append(i)
            for (j, child) in children.enumerated().reversed() {
                stack.append((child, i, depth + 1, j))
            }
        }
        while let last = open.popLast() { closeSpec(last) }
    }

    /// Ends node `i` of ``init(file:menus:)``, leaving room after the children of a
    /// `children-cmd` or `children-from` group (MenuTree+Vacancy.swift).
    private mutating func closeSpec(_ i: Int) {
        if childrenCommands[i] != nil || childrenSources[i] != nil {
            appendVacancy(MenuTree.vacancyReserve, parent: i)
        }
        sizes[i] = Int32(count - i)
    }

    /// The specs this tree was built from, for code that edits a menu as a tree (the
    /// daemon's `children-cmd` filling) and for tests.
    package var specs: [NodeSpec] {
        // Recursion is bounded by the depth of the specs or config the tree came from.
        func spec(_ i: Int) -> NodeSpec {
            // A confirmation is written as the item it was, its answers made again.
            let confirm = confirms[i]
            return NodeSpec(
                id: ids[i], kind: confirm == nil ? kinds[i] : .item,
                title: titleTemplates[i] ?? TitleTemplate(literal: titles[i]),
                subtitle: subtitles[i], icon: icons[i], children: confirm == nil ? children(i).map(spec) : [],
                expanded: initiallyExpanded[i], exclusive: exclusive[i], exec: execs[i], rule: rules[i],
                value: rules[i] == nil ? nil : initialValues[i], onChange: onChange[i],
                source: valueSources[i], childrenCommand: childrenCommands[i], refresh: refreshIntervals[i],
                childrenFrom: childrenSources[i], confirm: confirm,
                key: explicitKeys[i].map { Character(Unicode.Scalar($0)) },
                keywords: keywords[i].map { [$0] } ?? [], mark: mark(i))
        }
        return roots.map(spec)
    }
}
