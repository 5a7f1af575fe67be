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
}
