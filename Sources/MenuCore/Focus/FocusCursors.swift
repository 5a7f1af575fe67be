/// The focus cursors: one focused node per top-level menu, and which menu was used
/// last. The daemon keeps them next to the model and every view shows them, so a bar,
/// a launcher and a key binding all move the same cursor.
///
/// Cursors hold node numbers, which their owner renumbers when the model's move
/// (``renumber(_:)``), and are made valid whenever they are read: a node that is
/// hidden (an ancestor closed) hands the focus to its nearest visible ancestor, as a
/// tree widget does, and a node that is gone falls back to its menu's first row.
public struct FocusCursors: Sendable {
    /// The focused node of each top-level menu that has been navigated, by the menu's
    /// node.
    private var focused: [Int: Int] = [:]
    /// The top-level menu of the last move, which `nav` and `focused` without a menu use.
    private var current: Int?

    public init() {}

    /// Where a cursor is: its top-level menu and the focused node's path.
    public struct Focus: Sendable, Hashable {
        public var menu: String
        public var path: String
    }

    /// What a move did: the new focus, the change it made to the menu, and for
    /// `activate` what the activation was.
    public struct Outcome: Sendable {
        public var focus: Focus
        public var change: Change
        public var activation: (node: Int, path: String, activation: Activation)?
    }

    /// The focus of `menu`, a top-level menu's id, or with nil of the current menu.
    public func focus(in menu: String?, model: MenuModel) throws(MenuError) -> Focus {
        let node = try effectiveNode(in: menu, model: model)
        return Focus(menu: model.tree.id(model.topLevel(of: node)), path: model.tree.path(node))
    }

    /// Focuses `node`, opening its ancestors so that its row is visible.
    public mutating func focus(on node: Int, model: MenuModel) throws(MenuError) -> Outcome {
        let change = try model.expandTo(node: node)
        return Outcome(focus: store(node, model: model), change: change, activation: nil)
    }

    /// Focuses `node` as ``focus(on:model:)`` does and opens it, if it is a group or
    /// a choice with anything to show: a deep link, as a user who opened each group
    /// on the way would see it. One change for both.
    public mutating func open(_ node: Int, model: MenuModel) throws(MenuError) -> Outcome {
        let opens = model.tree.kind(node).isExpandable && model.tree.size(node) > 1 && !model.isExpanded(node)
        let change = try model.batch { model throws(MenuError) in
            _ = try model.expandTo(node: node)
            if opens { _ = try model.expand(node: node) }
        }
        return Outcome(focus: store(node, model: model), change: change, activation: nil)
    }

    /// Moves the cursor of `menu` (nil: the current menu, free to cross into the
    /// others) or acts on its focused node. Moves past either end stay where they are,
    /// and `expand` or `collapse` on a node without children, or `increase` or
    /// `decrease` on a node that is not a range, do nothing, because a scroll wheel or
    /// a key binding sends them without knowing where the focus is.
    public mutating func move(_ move: NavMove, in menu: String?, model: MenuModel) throws(MenuError)
        -> Outcome
    {
        let node = try effectiveNode(in: menu, model: model)
        let tree = model.tree
        let root = model.topLevel(of: node)
        let scope = menu == nil ? 0..<tree.count : root..<(root + tree.size(root))
        let row = model.rowIndex(of: node) ?? 0
        let path = tree.path(node)
        let hasChildren = tree.kind(node).isExpandable && tree.hasChildren(node)
        let isOpen = model.isExpanded(node)
        var target = node
        var change = Change()
        var activation: (Int, String, Activation)?

        switch move {
        case .next: target = model.visibleNode(atRow: row + 1, in: scope) ?? node
        case .prev: target = model.visibleNode(atRow: row - 1, in: scope) ?? node
        case .first: target = scope.lowerBound
        case .last: target = model.lastVisible(in: scope)
        case .parent: target = tree.parent(node).flatMap { scope.contains($0) ? $0 : nil } ?? node
        case .child:
            if hasChildren {
                if !isOpen { change = try model.expand(node: node) }
                target = node + 1
            }
        case .expand: if hasChildren && !isOpen { change = try model.expand(node: node) }
        case .collapse: if hasChildren && isOpen { change = try model.collapse(node: node) }
        case .left:
            if hasChildren && isOpen {
                change = try model.collapse(node: node)
            } else {
                target = tree.parent(node).flatMap { scope.contains($0) ? $0 : nil } ?? node
            }
        case .right:
            if hasChildren {
                if isOpen {
                    target = node + 1
                } else {
                    change = try model.expand(node: node)
                }
            }
        case .increase, .decrease:
            if tree.kind(node) == .range {
                change = try model.step(node: node, by: .steps(move == .increase ? 1 : -1))
            }
        case .activate:
            let (activated, what) = try model.activate(node: node)
            change = activated
            activation = (node, path, what)
        }
        // An option's choice closes when it is picked: the focus follows to the choice.
        return Outcome(
            focus: store(model.nearestVisible(target), model: model), change: change, activation: activation)
    }

    /// `nav key K`: does what ``move(_:in:model:)``'s `activate` does, on the child
    /// with key `key` (MenuTree+Keys.swift) of the focused group, which is the
    /// focused node when it has children and else its parent (or for a top-level
    /// menu without children, the top-level menus). The child is shown and focused
    /// first, so that the focus lands where a click would have; both are one change.
    public mutating func activate(key: Character, in menu: String?, model: MenuModel) throws(MenuError)
        -> Outcome
    {
        let node = try effectiveNode(in: menu, model: model)
        let tree = model.tree
        let group = tree.kind(node).isExpandable && tree.hasChildren(node) ? node : tree.parent(node)
        guard let child = tree.child(of: group, key: key) else {
            let shown = MenuTree.keyByte(key).map { Character(Unicode.Scalar($0)) } ?? key
            throw .noSuchKey(group: group.map { tree.path($0) } ?? "", key: shown)
        }
        let path = tree.path(child)
        var activation = Activation.none
        let change = try model.batch { model throws(MenuError) in
            _ = try model.expandTo(node: child)
            (_, activation) = try model.activate(node: child)
        }
        return Outcome(
            focus: store(model.nearestVisible(child), model: model), change: change,
            activation: (child, path, activation))
    }

    private func effectiveNode(in menu: String?, model: MenuModel) throws(MenuError) -> Int {
        let root: Int
        if let menu {
            let n = try model.node(menu)
            guard model.tree.parent(n) == nil else { throw .notAMenu(menu) }
            root = n
        } else if let current, current < model.tree.count, model.tree.parent(current) == nil {
            root = current
        } else if let first = model.tree.topLevel.first {
            root = first
        } else {
            throw .noSuchNode("")
        }
        guard let n = focused[root], n < model.tree.count, model.topLevel(of: n) == root else { return root }
        return model.nearestVisible(n)
    }

    private mutating func store(_ node: Int, model: MenuModel) -> Focus {
        let root = model.topLevel(of: node)
        focused[root] = node
        current = root
        return Focus(menu: model.tree.id(root), path: model.tree.path(node))
    }

    /// The focused nodes, for what renumbers them to know which to carry.
    public var focusedNodes: [Int] { Array(focused.values) }

    /// The cursors after the model's nodes moved; one whose node is gone falls back to
    /// its menu's first row, and one whose menu is gone is forgotten.
    public mutating func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        var out: [Int: Int] = [:]
        for (root, n) in focused {
            guard let root = number(root) else { continue }
            out[root] = number(n) ?? root
        }
        focused = out
        current = current.flatMap { number($0) }
    }
}
