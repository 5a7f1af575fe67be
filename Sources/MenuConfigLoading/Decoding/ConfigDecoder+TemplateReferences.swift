import MenuCore

/// Checks `{a/b}` placeholders once the whole tree is read, since a title may name
/// a node that comes later in the file.
extension ConfigDecoder {
    mutating func checkReferences() {
        var known: [String: Bool] = [:]
        for (path, mark) in references {
            let holdsValue: Bool?
            if let cached = known[path] {
                holdsValue = cached
            } else {
                holdsValue = node(at: path).map { tree.kinds[$0].holdsValue }
                known[path] = holdsValue
            }
            switch holdsValue {
            case nil: error(mark, "unknown node '\(YAMLEvent.clip(path))' in template")
            case false: error(mark, "node '\(YAMLEvent.clip(path))' in template holds no value")
            case true: break
            }
        }
    }

    /// The node at an absolute path of ids joined by `/`. The tree's index by path
    /// is built only once loading succeeds, so this walks the children.
    private func node(at path: String) -> Int? {
        var found: Int?
        for id in path.split(separator: "/", omittingEmptySubsequences: false) {
            let level = found.map { AnySequence(tree.children($0)) } ?? AnySequence(tree.topLevel)
            guard let node = level.first(where: { tree.ids[$0] == id }) else { return nil }
            found = node
        }
        return found
    }
}
