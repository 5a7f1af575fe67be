import MenuCore

/// The model's operations by path, for tests that name nodes as a config does: each
/// looks the path up once, as a request's is where it arrives, and runs the node's
/// operation.
extension MenuModel {
    public func expand(_ path: String, recursive: Bool = false) throws(MenuError) -> Change {
        try expand(node: node(path), recursive: recursive)
    }

    public func collapse(_ path: String, recursive: Bool = false) throws(MenuError) -> Change {
        try collapse(node: node(path), recursive: recursive)
    }

    public func toggle(_ path: String, recursive: Bool = false) throws(MenuError) -> Change {
        try toggle(node: node(path), recursive: recursive)
    }

    public func set(_ path: String, _ text: String) throws(MenuError) -> Change {
        try set(node: node(path), text)
    }

    public func step(_ path: String, _ delta: String? = nil) throws(MenuError) -> Change {
        try step(node: node(path), delta)
    }

    public func activate(_ path: String) throws(MenuError) -> (Change, Activation) {
        try activate(node: node(path))
    }

    public func expandAll(_ path: String) throws(MenuError) -> Change {
        try expandAll(under: node(path))
    }

    public func collapseAll(_ path: String) throws(MenuError) -> Change {
        try collapseAll(under: node(path))
    }

    public func expandTo(_ path: String) throws(MenuError) -> Change {
        try expandTo(node: node(path))
    }

    public func get(_ path: String) throws(MenuError) -> Row { get(node: try node(path)) }

    public func rows(under path: String) throws(MenuError) -> [Row] { rows(under: try node(path)) }

    public func tree(under path: String) throws(MenuError) -> [Row] { tree(under: try node(path)) }

    public func replaceChildren(
        of path: String, with children: [NodeSpec], filling: (String) -> [NodeSpec],
        provided: [ChildrenSource: [NodeSpec]] = [:]
    ) throws(MenuError) -> (change: Change, dropped: [DroppedState]) {
        replaceChildren(of: try node(path), with: children, filling: filling, provided: provided)
    }

    /// The `children-cmd` groups, by path, with their commands.
    public var childrenCommands: [String: String] {
        Dictionary(
            uniqueKeysWithValues: childrenCommandGroups.map { (path(of: $0), childrenCommand(of: $0)!) })
    }

    /// The refreshing groups, by path, with how often.
    public var refreshingGroupsByPath: [String: Duration] {
        Dictionary(uniqueKeysWithValues: refreshingGroups.map { (path(of: $0.node), $0.every) })
    }

    public func showsOnlyLoadingRow(_ path: String) -> Bool {
        tree.node(at: path).map { showsOnlyLoadingRow($0) } ?? true
    }

    /// Whether the node at `path` is open; false for no such node.
    public func isExpanded(path: String) -> Bool { tree.node(at: path).map { isExpanded($0) } ?? false }

    /// The value of the node at `path`; nil for no such node or no value.
    public func value(path: String) -> Value? { tree.node(at: path).flatMap { value(of: $0) } }
}
