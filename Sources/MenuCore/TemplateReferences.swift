/// Checks `{a/b}` placeholders once the whole tree is read, since a title may name
/// a node that comes later in the file.
extension ConfigDecoder {
    mutating func checkReferences(in menus: [NodeSpec]) {
        var known: [String: Bool] = [:]
        for (path, mark) in references {
            let holdsValue: Bool?
            if let cached = known[path] {
                holdsValue = cached
            } else {
                holdsValue = ConfigDecoder.node(at: path, in: menus)?.kind.holdsValue
                known[path] = holdsValue
            }
            switch holdsValue {
            case nil: error(mark, "unknown node '\(YAMLEvent.clip(path))' in template")
            case false: error(mark, "node '\(YAMLEvent.clip(path))' in template holds no value")
            case true: break
            }
        }
    }

    /// The node at an absolute path of ids joined by `/`.
    static func node(at path: String, in menus: [NodeSpec]) -> NodeSpec? {
        var level = menus
        var found: NodeSpec?
        for id in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard let node = level.first(where: { $0.id == id }) else { return nil }
            found = node
            level = node.children
        }
        return found
    }
}
