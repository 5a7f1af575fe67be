/// A value read from the config together with where its key and value were, so
/// that checks which need the whole node (the type may come last) can still point
/// at the right place.
struct Field<T> {
    var value: T
    var keyMark: SourceMark
    var mark: SourceMark
}

/// What has been read of one node mapping so far. Keys can come in any order, so
/// checks that depend on the type wait until the mapping ends; drafts exist only
/// for the nodes currently open, never for the whole tree. A class, because the
/// decoder reuses one draft per depth for every node there instead of copying a
/// large value in and out of its stack.
final class NodeDraft {
    var mark = SourceMark(line: 1, column: 1)
    /// The node's number in the tree being built.
    var node = 0
    /// Keys seen, as `NodeKey.bit`s, for duplicate and "does not apply" checks.
    var seen: UInt32 = 0
    /// Where each seen key is, by `NodeKey.index`.
    private var keyMarks: [SourceMark] = []
    var id: Field<String>?
    var title: Field<String>?
    var subtitle: Field<String>?
    var icon: Field<String>?
    var type: Field<NodeKind>?
    var expanded: Field<Bool>?
    var exclusive: Field<Bool>?
    var exec: Field<String>?
    var value: Field<YAMLEvent>?
    var options: Field<[OptionDraft]>?
    var min: Field<Double>?
    var max: Field<Double>?
    var step: Field<Double>?
    var onChange: Field<String>?
    var childrenCommand: Field<String>?
    let children = Siblings()
    /// True while the decoder is inside this node's `children:` list.
    var inChildren = false

    /// Empties the draft for the node starting at `mark`, keeping its storage.
    func start(mark: SourceMark, node: Int) {
        self.mark = mark
        self.node = node
        seen = 0
        id = nil
        title = nil
        subtitle = nil
        icon = nil
        type = nil
        expanded = nil
        exclusive = nil
        exec = nil
        value = nil
        options = nil
        min = nil
        max = nil
        step = nil
        onChange = nil
        childrenCommand = nil
        children.removeAll()
        inChildren = false
    }

    func has(_ key: NodeKey) -> Bool { seen & key.bit != 0 }

    func mark(of key: NodeKey) -> SourceMark { keyMarks[key.index] }

    func record(_ key: NodeKey, at mark: SourceMark) {
        if keyMarks.isEmpty {
            keyMarks = Array(repeating: mark, count: NodeKey.all.count)
        }
        seen |= key.bit
        keyMarks[key.index] = mark
    }

    /// The keys seen with their marks, in `NodeKey` order.
    var keys: [(NodeKey, SourceMark)] {
        NodeKey.all.compactMap { has($0) ? ($0, keyMarks[$0.index]) : nil }
    }
}

/// One entry of a choice's `options:` list.
struct OptionDraft {
    var mark: SourceMark
    var id: Field<String>?
    var title: Field<String>?
    var icon: Field<String>?
    /// Written as a bare name, which must then be a valid id itself.
    var isShortForm = false
}

/// The nodes of one list (the top-level menus or a group's children) finished so
/// far: how many, how many start expanded, and their ids, to catch duplicates as
/// each node is finished. A class so that the decoder's reused drafts keep its
/// storage from one list to the next.
final class Siblings {
    var count = 0
    /// Expandable nodes that start expanded; an exclusive group allows one.
    var expandedCount = 0
    /// Ids with the line of their first use. Most lists are short, and comparing a
    /// few small strings is cheaper than hashing them.
    private var firstIDs: [(id: String, line: Int)] = []
    /// The same once the list outgrows ``shortList``.
    private var firstLines: [String: Int] = [:]
    private static let shortList = 16

    /// Records `id` and returns nil, or returns the line of its first use.
    func add(_ id: String, line: Int) -> Int? {
        if firstLines.isEmpty {
            for entry in firstIDs where entry.id == id { return entry.line }
            if firstIDs.count < Siblings.shortList {
                firstIDs.append((id, line))
                return nil
            }
            for entry in firstIDs { firstLines[entry.id] = entry.line }
        }
        if let first = firstLines[id] { return first }
        firstLines[id] = line
        return nil
    }

    func removeAll() {
        count = 0
        expandedCount = 0
        firstIDs.removeAll(keepingCapacity: true)
        if !firstLines.isEmpty { firstLines.removeAll(keepingCapacity: true) }
    }
}
