/// The commands a user can apply: expansion, values and activation. Each is one
/// all-or-nothing unit that returns its ``Change``.
extension ModelCore {
    // Each takes the node by number: a request's path is looked up once, where it
    // arrives (``node(atPath:)``).

    mutating func expand(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        try expanding(try expandable(n), recursive: recursive)
    }

    mutating func collapse(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        try collapsing(try expandable(n), recursive: recursive)
    }

    mutating func toggle(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        if tree.kinds[n] == .toggle { return try flip(n) }
        return try toggling(try expandable(n), recursive: recursive)
    }

    /// Turns a toggle node on when it is off, and off when it is on.
    private mutating func flip(_ n: Int) throws(MenuError) -> Change {
        let on = values[n] == .toggle(true)
        return try mutate { (m: inout ModelCore) throws(MenuError) in m.setValue(n, .toggle(!on)) }
    }

    private mutating func expanding(_ n: Int, recursive: Bool) throws(MenuError) -> Change {
        try mutate { (m: inout ModelCore) throws(MenuError) in m.expand(n, recursive: recursive) }
    }

    private mutating func collapsing(_ n: Int, recursive: Bool) throws(MenuError) -> Change {
        try mutate { (m: inout ModelCore) throws(MenuError) in m.collapse(n, recursive: recursive) }
    }

    private mutating func toggling(_ n: Int, recursive: Bool) throws(MenuError) -> Change {
        try mutate { (m: inout ModelCore) throws(MenuError) in
            if m.expanded[n] {
                m.collapse(n, recursive: recursive)
            } else {
                m.expand(n, recursive: recursive)
            }
        }
    }

    private mutating func expand(_ n: Int, recursive: Bool) {
        open(n)
        if recursive { openBelow(n) }
    }

    private mutating func collapse(_ n: Int, recursive: Bool) {
        setExpanded(n, false)
        if recursive { closeBelow(n) }
    }

    /// Opens every group in the subtree (or the whole menu). In an exclusive group only
    /// one branch can be open: the one already open, else the first. A confirmation's
    /// question is only opened by asking for it, not by opening everything.
    mutating func expandAll(under root: Int? = nil) throws(MenuError) -> Change {
        let scope = try roots(root)
        return try mutate { (m: inout ModelCore) throws(MenuError) in
            for n in scope {
                if m.tree.kinds[n].isExpandable && !m.tree.isConfirmation(n) { m.open(n) }
                m.openBelow(n)
            }
        }
    }

    mutating func collapseAll(under root: Int? = nil) throws(MenuError) -> Change {
        let scope = try roots(root)
        return try mutate { (m: inout ModelCore) throws(MenuError) in
            for n in scope {
                m.setExpanded(n, false)
                m.closeBelow(n)
            }
        }
    }

    /// Opens every ancestor of node `n`, so that it becomes visible.
    mutating func expandTo(node n: Int) throws(MenuError) -> Change {
        try mutate { (m: inout ModelCore) throws(MenuError) in
            var chain: [Int] = []
            var a = m.tree.parent(n)
            while let p = a {
                chain.append(p)
                a = m.tree.parent(p)
            }
            for p in chain.reversed() { m.open(p) }
        }
    }

    /// Sets a value node from text, checked by the node's rule.
    mutating func set(node n: Int, _ text: String) throws(MenuError) -> Change {
        guard let rule = tree.rules[n] else { throw .notAValue(tree.path(n)) }
        // `+5` reads as the number 5, but whoever wrote it meant "5 more": refused,
        // pointing to the command that means that. `-5` stays a negative value.
        if case .range = rule, text.utf8.first == UInt8(ascii: "+"), ValueRule.number(text) != nil {
            let p = tree.path(n)
            throw .invalidValue(path: p, reason: "'\(text)' is relative; use step \(p) \(text)")
        }
        switch rule.parse(text, options: options(of: n)) {
        case .success(let value):
            return try mutate { (m: inout ModelCore) throws(MenuError) in m.setValue(n, value) }
        case .failure(let error):
            throw .invalidValue(path: tree.path(n), reason: error.message)
        }
    }

    /// Moves a range node's value by `delta` as `step` writes it (`+N`, `-N`), or
    /// with nil one step up; see ``ValueRule/stepped(_:by:)``.
    mutating func step(node n: Int, _ delta: String?) throws(MenuError) -> Change {
        try step(n, delta)
    }

    /// Moves a range node's value by `delta`: the `increase` and `decrease` moves.
    mutating func step(node n: Int, by delta: RangeDelta) throws(MenuError) -> Change {
        try step(n, try range(n), by: delta)
    }

    private mutating func step(_ n: Int, _ text: String?) throws(MenuError) -> Change {
        // The node's kind is checked before its delta: `step apps +5` is a mistake of
        // path, whatever the delta says.
        let rule = try range(n)
        var delta = RangeDelta.steps(1)
        if let text {
            switch RangeDelta.parse(text) {
            case .success(let given): delta = given
            case .failure(let error): throw .invalidValue(path: tree.path(n), reason: error.message)
            }
        }
        return try step(n, rule, by: delta)
    }

    private mutating func step(_ n: Int, _ rule: ValueRule, by delta: RangeDelta)
        throws(MenuError) -> Change
    {
        // A range always holds a number; from its default were it ever without one.
        let current = values[n] ?? rule.defaultValue
        guard case .number(let now) = current, let next = rule.stepped(now, by: delta),
            rule.accepts(.number(next))
        else {
            // `stepped` ends on a value the rule accepts; checked all the same, so
            // that a mistake there is an error and never a value the rule refuses.
            throw .invalidValue(path: tree.path(n), reason: "cannot step from \(current)")
        }
        return try mutate { (m: inout ModelCore) throws(MenuError) in m.setValue(n, .number(next)) }
    }

    /// The rule of node `n`, a range.
    private func range(_ n: Int) throws(MenuError) -> ValueRule {
        guard let rule = tree.rules[n], case .range = rule else {
            throw .notARange(tree.path(n), kind: tree.kinds[n])
        }
        return rule
    }

    /// Does what selecting the node means: picks an option (and closes its choice),
    /// flips a toggle, opens or closes a group (a confirmation's question too), or
    /// hands back an item's command. A confirmation's answer closes the question, and
    /// yes hands back the confirmed item's command.
    mutating func activate(node n: Int) throws(MenuError) -> (Change, Activation) {
        switch tree.kinds[n] {
        case .group, .choice:
            return (try toggle(node: n, recursive: false), .toggled)
        case .toggle:
            return (try flip(n), .flipped)
        case .option:
            let choice = tree.parent(n)!
            let change = try mutate { (m: inout ModelCore) throws(MenuError) in
                m.setValue(choice, .choice(m.tree.ids[n]))
                m.setExpanded(choice, false)
            }
            return (change, .picked)
        case .item:
            if let (confirmation, yes) = tree.answer(n) {
                let change = try mutate { (m: inout ModelCore) throws(MenuError) in
                    m.setExpanded(confirmation, false)
                }
                let command = tree.execs[confirmation]
                return (change, yes ? command.map { .run(command: $0) } ?? Activation.none : .declined)
            }
            return (Change(), tree.execs[n].map { .run(command: $0) } ?? Activation.none)
        case .range, .text, .date:
            throw .notActivatable(tree.path(n))
        }
    }

    // MARK: Helpers

    private func expandable(_ n: Int) throws(MenuError) -> Int {
        guard tree.kinds[n].isExpandable else { throw .notExpandable(tree.path(n)) }
        return n
    }

    private func roots(_ root: Int?) throws(MenuError) -> [Int] {
        guard let root else { return tree.roots }
        return [try expandable(root)]
    }

    /// Opens every expandable descendant of `n`, one branch per exclusive group, but no
    /// confirmation's question.
    mutating func openBelow(_ n: Int) {
        for i in tree.descendants(n) where tree.kinds[i].isExpandable && !tree.isConfirmation(i) {
            let p = tree.parent(i)!
            if tree.exclusive[p] {
                let chosen = openBranch(of: p) ?? firstBranch(of: p)
                if chosen != i { continue }
            }
            open(i)
        }
    }

    private func firstBranch(of group: Int) -> Int? {
        tree.children(group).first { tree.kinds[$0].isExpandable && !tree.isConfirmation($0) }
    }

    mutating func closeBelow(_ n: Int) {
        for i in tree.descendants(n) where tree.kinds[i].isExpandable { setExpanded(i, false) }
    }

    mutating func restoreValue(_ i: Int, _ old: Value?) {
        values[i] = old
        valueDidChange(i)
    }
}
