/// A whole loaded config: the file it came from and its menus, kept flat as the
/// ``MenuTree`` the model serves, since a big config is loaded straight into that
/// form and a second, nested copy would double its memory.
public struct MenuConfig: Sendable {
    /// The nodes, without the lookup by path that ``MenuTree/init(config:)`` adds.
    package let nodes: MenuTree
    public var file: String { nodes.file }
    public var nodeCount: Int { nodes.nodeCount }
    /// `settings: tray`: whether menud publishes its menus as tray items.
    public var tray = false

    /// The menus as specs, rebuilt from the tree on each call.
    public var menus: [NodeSpec] { nodes.specs }

    public init(file: String, menus: [NodeSpec]) {
        nodes = MenuTree(file: file, menus: menus)
    }

    package init(tree: MenuTree, tray: Bool = false) {
        nodes = tree
        self.tray = tray
    }
}
