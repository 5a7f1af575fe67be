/// One node as a tree of values, for menus assembled in code (tests, the daemon's
/// `children-cmd` filling) and for reading a loaded config; the loader itself
/// writes ``MenuTree``'s arrays directly. Nothing in them refers to YAML.
public struct NodeSpec: Sendable {
    public var id: String
    public var kind: NodeKind
    public var title: TitleTemplate
    public var subtitle: TitleTemplate?
    public var icon: String?
    public var children: [NodeSpec]
    /// Initial expansion; only meaningful for expandable kinds.
    public var expanded: Bool
    /// At most one child branch open at a time.
    public var exclusive: Bool
    public var exec: String?
    /// The rule for value kinds, nil for others.
    public var rule: ValueRule?
    /// The initial value for value kinds, already checked against `rule`.
    public var value: Value?
    public var onChange: String?
    /// For a value node: where it reads its value from the system.
    public var source: ValueSource?
    /// For a group: the command whose output (YAML nodes) becomes its children when
    /// it is opened. The daemon runs it; the model only ever sees the result.
    public var childrenCommand: String?
    /// For a `children-cmd` group: how often its command runs again while the group
    /// is open.
    public var refresh: Duration?
    /// For a group: where its children come from when not from the config or a
    /// command (`children-from`). The daemon fills them in; the model only ever sees
    /// the result.
    public var childrenFrom: ChildrenSource?
    /// For an item with `exec`: the question it asks before running it, empty for the
    /// default one. Such an item is served as a group of two answers (see
    /// `Confirmation.swift`); its own `children` are ignored.
    public var confirm: String?
    /// The node's access key (`key:`): one ASCII letter or digit, any case. Nil
    /// leaves it to the title (MenuTree+Keys.swift); anything else is ignored here,
    /// the config's checker having refused it.
    public var key: Character?
    /// More words that find the node (`keywords:`), not shown.
    public var keywords: [String]
    /// Where the node starts in its file, for errors found after loading.
    public var mark: SourceMark

    public init(
        id: String, kind: NodeKind, title: TitleTemplate, subtitle: TitleTemplate? = nil,
        icon: String? = nil, children: [NodeSpec] = [], expanded: Bool = false,
        exclusive: Bool = false, exec: String? = nil, rule: ValueRule? = nil, value: Value? = nil,
        onChange: String? = nil, source: ValueSource? = nil, childrenCommand: String? = nil,
        refresh: Duration? = nil, childrenFrom: ChildrenSource? = nil, confirm: String? = nil,
        key: Character? = nil, keywords: [String] = [], mark: SourceMark = SourceMark(line: 1, column: 1)
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.children = children
        self.expanded = expanded
        self.exclusive = exclusive
        self.exec = exec
        self.rule = rule
        self.value = value
        self.onChange = onChange
        self.source = source
        self.childrenCommand = childrenCommand
        self.refresh = refresh
        self.childrenFrom = childrenFrom
        self.confirm = confirm
        self.key = key
        self.keywords = keywords
        self.mark = mark
    }
}
