/// Groups whose children come from a command (`children-cmd`). The tree is built
/// once from specs and never changes, so the daemon fills those groups in the specs
/// and builds a new model whenever a command's output arrives; these are the
/// spec-side helpers for that.
extension MenuConfig {
    /// Every `children-cmd` group, by path, with its command: in the config and in
    /// whatever children are already filled in (a command may print more such groups).
    public var childrenCommands: [String: String] {
        var out: [String: String] = [:]
        var stack: [(node: NodeSpec, prefix: String)] = menus.map { ($0, "") }
        while let (node, prefix) = stack.popLast() {
            let path = prefix + node.id
            if let command = node.childrenCommand { out[path] = command }
            stack += node.children.map { ($0, path + "/") }
        }
        return out
    }

    /// This config with each `children-cmd` group's children set to
    /// `children(path)`, looking into the returned children for more such groups.
    /// Filling stops at ``ConfigDecoder/maxMenuDepth``, however deep commands nest.
    public func fillingChildren(_ children: (String) -> [NodeSpec]) -> MenuConfig {
        var copy = self
        for i in copy.menus.indices { Self.fill(&copy.menus[i], prefix: "", depth: 0, children) }
        return copy
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
