/// Groups whose children come from a command (`children-cmd`). The tree is built
/// once and never changes, so the daemon fills those groups in specs
/// and builds a new model whenever a command's output arrives; these are the
/// spec-side helpers for that.
extension MenuConfig {
    /// Every `children-cmd` group, by path, with its command: in the config and in
    /// whatever children are already filled in (a command may print more such groups).
    public var childrenCommands: [String: String] {
        var out: [String: String] = [:]
        for (i, command) in nodes.childrenCommands { out[nodes.path(i)] = command }
        return out
    }

    /// This config with each `children-cmd` group's children set to
    /// `children(path)`, looking into the returned children for more such groups.
    /// Filling stops at ``ConfigDecoder/maxMenuDepth``, however deep commands nest.
    public func fillingChildren(_ children: (String) -> [NodeSpec]) -> MenuConfig {
        // Most configs have no such group; they must not pay for a round trip
        // through specs on every load.
        if nodes.childrenCommands.isEmpty { return self }
        var menus = self.menus
        for i in menus.indices { Self.fill(&menus[i], prefix: "", depth: 0, children) }
        return MenuConfig(file: file, menus: menus)
    }

    private static func fill(
        _ node: inout NodeSpec, prefix: String, depth: Int, _ children: (String) -> [NodeSpec]
    ) {
        let path = prefix + node.id
        guard depth < ConfigDecoder.maxMenuDepth else {
            node.children = []
            return
        }
        if node.childrenCommand != nil { node.children = children(path) }
        for i in node.children.indices {
            fill(&node.children[i], prefix: path + "/", depth: depth + 1, children)
        }
    }
}

extension NodeSpec {
    /// The one child of a `children-cmd` group before its command has run, so that
    /// the group can be opened at all.
    public static let loadingRow = NodeSpec(
        id: "loading", kind: .item, title: TitleTemplate(literal: "Loading…"))

    /// The one child of a `children-cmd` group whose command failed: the group stays
    /// usable and shows why.
    public static func errorRow(_ message: String) -> NodeSpec {
        NodeSpec(id: "error", kind: .item, title: TitleTemplate(literal: "Error: \(message)"))
    }
}
