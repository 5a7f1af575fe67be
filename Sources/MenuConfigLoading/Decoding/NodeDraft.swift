import MenuCore

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
/// for the nodes currently open, never for the whole tree. The decoder keeps one
/// per depth in fixed storage and reuses it for every node there, so that a node
/// costs no allocation and no reference counting.
struct NodeDraft {
    var mark = SourceMark(line: 1, column: 1)
    /// The node's number in the tree being built.
    var node = 0
    /// Keys seen, as `NodeKey.bit`s, for duplicate and "does not apply" checks.
    var seen: UInt32 = 0
    /// Keys that an unknown key was reported as a likely misspelling of, as
    /// `NodeKey.bit`s: the user wrote them, so they are not reported missing too.
    var misspelt: UInt32 = 0
    /// Where each seen key is, by `NodeKey.index`: `NodeKey.all.count` entries that
    /// the decoder owns, so that the draft itself needs no cleaning up.
    private let keyMarks: UnsafeMutablePointer<SourceMark>
    var id: Field<String>?
    /// Facts about `id` and `title` found while their bytes were at hand, so that
    /// the finished node need not walk the strings again.
    var idIsValid = false
    var idHash: UInt64 = 0
    var titleHasBrace = false
    var title: Field<String>?
    var subtitle: Field<String>?
    var icon: Field<String>?
    var type: Field<NodeKind>?
    var expanded: Field<Bool>?
    var exclusive: Field<Bool>?
    var exec: Field<String>?
    var value: Field<YAMLScalar>?
    var options: Field<[OptionDraft]>?
    var min: Field<Double>?
    var max: Field<Double>?
    var step: Field<Double>?
    var onChange: Field<String>?
    var childrenCommand: Field<String>?
    var valueCommand: Field<String>?
    var valueListen: Field<String>?
    var interval: Field<String>?
    var refresh: Field<String>?
    var childrenFrom: Field<String>?
    /// The question of `confirm:`, empty for `confirm: true`'s default one.
    var confirm: Field<String>?
    /// `key:` as written; `finish` checks it.
    var key: Field<String>?
    /// `keywords:`, one string or a list of them.
    var keywords: Field<[String]>?
    var children = Siblings()
    /// True while the decoder is inside this node's `children:` list.
    var inChildren = false

    init(keyMarks: UnsafeMutablePointer<SourceMark>) { self.keyMarks = keyMarks }

    /// Empties the draft for the node starting at `mark`, keeping its storage. Only
    /// the fields of keys seen can be set, so only those are cleared.
    mutating func start(mark: SourceMark, node: Int) {
        self.mark = mark
        self.node = node
        misspelt = 0
        if seen != 0 {
            var rest = seen
            while rest != 0 {
                clear(index: rest.trailingZeroBitCount)
                rest &= rest - 1
            }
            seen = 0
        }
        children.removeAll()
        inChildren = false
    }

    /// Clears the field of the key whose `NodeKey.index` is `index`.
    private mutating func clear(index: Int) {
        switch index {
        case NodeKey.id.index: id = nil
        case NodeKey.title.index: title = nil
        case NodeKey.subtitle.index: subtitle = nil
        case NodeKey.icon.index: icon = nil
        case NodeKey.type.index: type = nil
        case NodeKey.expanded.index: expanded = nil
        case NodeKey.exclusive.index: exclusive = nil
        case NodeKey.exec.index: exec = nil
        case NodeKey.value.index: value = nil
        case NodeKey.options.index: options = nil
        case NodeKey.min.index: min = nil
        case NodeKey.max.index: max = nil
        case NodeKey.step.index: step = nil
        case NodeKey.onChange.index: onChange = nil
        case NodeKey.childrenCommand.index: childrenCommand = nil
        case NodeKey.confirm.index: confirm = nil
        case NodeKey.valueCommand.index: valueCommand = nil
        case NodeKey.valueListen.index: valueListen = nil
        case NodeKey.interval.index: interval = nil
        case NodeKey.refresh.index: refresh = nil
        case NodeKey.childrenFrom.index: childrenFrom = nil
        case NodeKey.key.index: key = nil
        case NodeKey.keywords.index: keywords = nil
        default: break  // children, whose list is emptied separately
        }
    }

    // Inlined because a call copied the whole draft to pass it as `self`.
    @inline(__always) func has(_ key: NodeKey) -> Bool { seen & key.bit != 0 }

    /// Whether the key was written, if misspelt: a missing key is then not reported.
    @inline(__always) func wrote(_ key: NodeKey) -> Bool { (seen | misspelt) & key.bit != 0 }

    @inline(__always) func mark(of key: NodeKey) -> SourceMark { keyMarks[key.index] }

    @inline(__always) mutating func record(_ key: NodeKey, at mark: SourceMark) {
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
    /// A key reported as a misspelt `title`: not reported missing too.
    var misspeltTitle = false
}
