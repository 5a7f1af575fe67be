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
/// for the nodes currently open, never for the whole tree.
struct NodeDraft {
    var mark: SourceMark
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
    var children = Siblings()
    /// True while the decoder is inside this node's `children:` list.
    var inChildren = false

    init(mark: SourceMark) { self.mark = mark }

    func has(_ key: NodeKey) -> Bool { seen & key.bit != 0 }

    func mark(of key: NodeKey) -> SourceMark { keyMarks[key.index] }

    mutating func record(_ key: NodeKey, at mark: SourceMark) {
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

/// The nodes of one list (the top-level menus or a group's children) with their ids,
/// to catch duplicates as each node is finished.
struct Siblings {
    var nodes: [NodeSpec] = []
    var firstLine: [String: Int] = [:]
}
