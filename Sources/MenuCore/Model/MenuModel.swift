/// The one owner of a menu's state: which groups are open, what every value is, and
/// therefore which rows are visible. Every change goes through here and comes back as
/// a ``Change`` (row splices and the nodes that changed), in the manner of VS Code's
/// `IndexTreeModel`, so views only ever render and never compute state.
///
/// A class around one value (``ModelCore``): its owners share it by reference, and
/// each operation is one access to the value, mutated in place.
///
/// Not thread-safe: the daemon confines it to one executor.
public final class MenuModel {
    var core: ModelCore

    /// Runs a read of the state in place. A method called on the stored value
    /// itself is handed a copy of it (a retain and a release for each of its arrays)
    /// whenever the optimizer cannot see that nothing else touches it meanwhile; an
    /// `inout` access is never copied, and costs the same one check.
    @inline(__always)
    private func reading<Result, Failure: Error>(_ body: (inout ModelCore) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        try body(&core)
    }

    public init(config: MenuConfig) { core = ModelCore(config: config) }

    public init(tree: MenuTree) { core = ModelCore(tree: tree) }

    private init(core: ModelCore) { self.core = core }

    /// A model of its own with this one's state, for a change prepared on another
    /// thread: the two share their storage until either changes, and each then
    /// copies what it changes, so the copy may be changed there while this one is
    /// read and changed here.
    public func copy() -> MenuModel { MenuModel(core: core) }

    /// Takes `prepared`'s state for this model's, and gives it this one's: a change
    /// made on a ``copy()`` taken at this model's ``revision``, which the caller has
    /// checked it still is. `prepared` then holds the old state, to be freed where
    /// freeing it keeps nobody waiting.
    public func exchangeState(with prepared: MenuModel) { swap(&core, &prepared.core) }

    /// The model a snapshot was taken of, for work done on another thread than the
    /// model's own.
    public init(_ snapshot: ModelSnapshot) { core = ModelCore(snapshot) }

    /// The model of `snapshot` for `find` and for reading its nodes (paths, titles,
    /// values, breadcrumbs) on another thread, made without indexing its rows: the
    /// visible rows are not to be asked of it.
    public init(searching snapshot: ModelSnapshot) { core = ModelCore(searching: snapshot) }

    /// Changes only where ``replaceChildren(of:with:filling:)`` splices a group.
    public var tree: MenuTree { _read { yield core.tree } }
    /// Goes up whenever a splice gives nodes new numbers: what a view keeps by node
    /// number is stale then (``rowVersion(of:)``).
    public var numbering: Int { core.numbering }
    /// Goes up with every change to an expansion flag, a value or the tree: a
    /// ``ModelSnapshot`` taken at one revision describes the model as long as the
    /// revision is the same.
    public var revision: Int { core.revision }
    public var file: String { core.tree.file }
    public var nodeCount: Int { core.tree.nodeCount }
    /// How many rows are visible in the whole menu.
    public var rowCount: Int { reading { $0.rowCount } }

    // MARK: Lookups

    /// The node whose path is `bytes`, such as a request's word in the daemon's read
    /// buffer, without making a `String` of it; nil when there is none.
    public func node(atPath bytes: UnsafeBufferPointer<UInt8>) -> Int? { reading { $0.node(atPath: bytes) } }
    /// The node at `path`, or `noSuchNode`.
    public func node(_ path: String) throws(MenuError) -> Int {
        try reading { (m: inout ModelCore) throws(MenuError) in try m.node(path) }
    }
    /// The node shown at visible row `index`.
    public func node(atRow index: Int) -> Int? { reading { $0.node(atRow: index) } }
    /// The visible row of node `i`, or nil when an ancestor is collapsed.
    public func rowIndex(of i: Int) -> Int? { reading { $0.rowIndex(of: i) } }
    /// The node's path.
    public func path(of i: Int) -> String { reading { $0.path(of: i) } }
    /// The paths of `nodes`, in their order: for logs and tests, which name nodes as
    /// users do.
    public func paths(of nodes: [Int]) -> [String] { reading { $0.paths(of: nodes) } }
    /// The bytes of node `i`'s path appended to `bytes`, without making a `String`:
    /// how a record names a node.
    public func appendPath(of i: Int, to bytes: inout [UInt8]) {
        reading { $0.tree.appendPath(of: i, to: &bytes) }
    }
    /// The node of this model at the path that node `n` has in `other`, or nil: how
    /// a change told in an old model's numbers is carried into a reloaded one's.
    public func node(samePathAs n: Int, in other: MenuModel) -> Int? {
        reading { $0.lookUp(other.path(of: n)) }
    }
    /// The top-level menu that `i` belongs to.
    public func topLevel(of i: Int) -> Int { reading { $0.topLevel(of: i) } }

    // MARK: State of one node

    public func isExpanded(_ i: Int) -> Bool { core.expanded[i] }
    public func value(of i: Int) -> Value? { core.values[i] }
    /// The `on-change` command of node `i`, if it has one.
    public func onChangeCommand(of i: Int) -> String? { core.tree.onChangeCommand(i) }
    /// Where node `i` reads its value from the system, if it does.
    public func valueSource(of i: Int) -> ValueSource? { core.tree.valueSource(i) }
    /// The `children-cmd` of node `i`, when it is such a group.
    public func childrenCommand(of i: Int) -> String? { core.tree.childrenCommands[i] }
    /// The rendered title of node `i`.
    public func title(of i: Int) -> String { reading { $0.title(of: i) } }
    /// The titles of `i`'s ancestors, the top-level menu's first: where the node is,
    /// as a user who opened its groups saw it.
    public func breadcrumbs(of i: Int) -> [String] {
        reading { m in
            var titles: [String] = []
            var n = m.tree.parent(i)
            while let a = n {
                titles.append(m.title(of: a))
                n = m.tree.parent(a)
            }
            return titles.reversed()
        }
    }
    /// The question a `confirm:` item asks before it runs, nil for any other node.
    public func question(of i: Int) -> String? { reading { $0.tree.question(of: i, title: $0.title(of: i)) } }
    /// Nodes whose title or subtitle shows the value of `i`, besides `i` itself.
    public func readers(of i: Int) -> [Int] { reading { $0.readers(of: i) } }
    /// Goes up whenever anything node `n`'s row shows changes: its expansion, its
    /// value, a value its title or subtitle reads, its choice's pick, its place among
    /// its siblings. What a view keeps of the row is stale once this moves, or once
    /// ``numbering`` does.
    public func rowVersion(of n: Int) -> UInt32 { core.rowVersions[n] }

    // MARK: Search

    /// The nodes that match `query`, best first, at most `limit`. Every node counts,
    /// hidden ones and the children a `children-cmd` group has loaded too. The
    /// query's words, split at spaces, must each match, letters in order but not
    /// necessarily together, ignoring case and accents, in the node's title, its
    /// keywords or a group's title, or all of them in its path. A title that is the
    /// query ranks first, then the nodes holding more of the words themselves, then
    /// as fzf ranks them, then the shallower (docs/protocol.md, "find"). `badQuery` for an empty
    /// query, one longer than 256 bytes or with a control character, and a limit
    /// outside 1…10,000.
    ///
    /// A big menu is searched in parts on as many threads at once as there are
    /// cores, at most `threads`: a daemon gives its pool's size, so that a search
    /// leaves its loop a core. `onPartThread` runs on each thread a part runs on,
    /// before the part: a daemon that searches beside its loop lowers their priority
    /// there, as it does its own pool's.
    public func find(
        _ query: String, limit: Int, threads: Int = .max, onPartThread: (@Sendable () -> Void)? = nil
    ) throws(MenuError) -> [FoundNode] {
        try reading { (m: inout ModelCore) throws(MenuError) in
            try m.find(query, limit: limit, threads: threads, onPartThread: onPartThread)
        }
    }

    /// ``find(_:limit:threads:onPartThread:)`` with the menu searched in parts of at
    /// least `partSize` nodes: the tests' way to split a small menu.
    func find(
        _ query: String, limit: Int, partSize: Int, threads: Int = .max,
        onPartThread: (@Sendable () -> Void)? = nil
    ) throws(MenuError) -> [FoundNode] {
        try reading { (m: inout ModelCore) throws(MenuError) in
            try m.find(query, limit: limit, partSize: partSize, threads: threads, onPartThread: onPartThread)
        }
    }

    /// The bytes the search index holds.
    public var searchIndexBytes: Int { core.search.byteCount }

    // MARK: Rows

    public func row(at index: Int) throws(MenuError) -> Row {
        try reading { (m: inout ModelCore) throws(MenuError) in try m.row(at: index) }
    }
    /// Node `n`'s row without its index, which moves with every group above: what
    /// a view keeps per node, as long as ``rowVersion(of:)`` and ``numbering`` stay.
    public func row(of n: Int) -> Row { reading { $0.makeRow(n, index: nil) } }
    /// Node `n`'s row, with its index among the visible rows (nil when hidden).
    public func get(node n: Int) -> Row { reading { $0.get(node: n) } }
    /// Visible rows: of the whole menu, or of the subtree at `root` as if it were a
    /// top-level menu (its own ancestors' state does not hide it).
    public func rows(under root: Int? = nil) -> [Row] { reading { $0.rows(under: root) } }
    /// Every node, with `index` nil for the hidden ones.
    public func tree(under root: Int? = nil) -> [Row] { reading { $0.tree(under: root) } }
    /// Visible rows `range` of the whole menu, for a view that shows a window of them.
    public func rows(in range: Range<Int>) -> [Row] { reading { $0.rows(in: range) } }

    // MARK: Operations

    // The operations take node numbers: a path is looked up once, where a request
    // arrives (``node(_:)``, ``node(atPath:)``).

    public func expand(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        try core.expand(node: n, recursive: recursive)
    }

    public func collapse(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        try core.collapse(node: n, recursive: recursive)
    }

    public func toggle(node n: Int, recursive: Bool = false) throws(MenuError) -> Change {
        try core.toggle(node: n, recursive: recursive)
    }

    /// Opens every group in the subtree (or the whole menu); see
    /// ``ModelCore/expandAll(_:)``.
    public func expandAll(under root: Int? = nil) throws(MenuError) -> Change {
        try core.expandAll(under: root)
    }

    public func collapseAll(under root: Int? = nil) throws(MenuError) -> Change {
        try core.collapseAll(under: root)
    }

    /// Opens the node's ancestors, so that it is visible.
    public func expandTo(node n: Int) throws(MenuError) -> Change { try core.expandTo(node: n) }

    public func set(node n: Int, _ text: String) throws(MenuError) -> Change { try core.set(node: n, text) }

    /// Moves a range node's value by `delta` (`+N`, `-N`; nil: one step up), clamped
    /// to its bounds and snapped to its step (``ValueRule/stepped(_:by:)``).
    public func step(node n: Int, _ delta: String? = nil) throws(MenuError) -> Change {
        try core.step(node: n, delta)
    }

    public func step(node n: Int, by delta: RangeDelta) throws(MenuError) -> Change {
        try core.step(node: n, by: delta)
    }

    public func activate(node n: Int) throws(MenuError) -> (Change, Activation) { try core.activate(node: n) }

    // MARK: Values from the system

    /// Applies a line that node `n`'s source printed; see ``ModelCore/read(_:into:)``.
    public func read(_ line: String, into n: Int) throws(MenuError) -> (Change, ReadingOutcome) {
        try core.read(line, into: n)
    }

    /// Marks nodes whose value is not known to be the system's, with why when the
    /// daemon knows; see ``ModelCore/markStale(_:reason:)``.
    public func markStale(_ nodes: [Int], reason: StaleReason? = nil) -> Change {
        core.markStale(nodes, reason: reason)
    }

    /// Whether node `n`'s value is not known to be the system's.
    public func isStale(_ n: Int) -> Bool { core.isStale(n) }

    /// The value nodes that read from the system, with their sources, in tree order.
    public var valueSources: [(node: Int, source: ValueSource)] {
        reading { m in m.tree.valueSources.sorted { $0.key < $1.key }.map { (node: $0.key, source: $0.value) }
        }
    }

    /// Applies `body` as one unit: if it throws, every change made inside is undone
    /// and the error is rethrown; otherwise the whole change comes back at once.
    /// `body` calls this model's operations, each its own access to the state, so the
    /// batch holds none while it runs. It throws what `body` throws, typed.
    public func batch<Failure: Error>(_ body: (MenuModel) throws(Failure) -> Void) throws(Failure) -> Change {
        if core.journaling {
            try body(self)
            return Change()
        }
        core.beginJournal()
        defer { core.endJournal() }
        do {
            try body(self)
        } catch {
            core.rollBack()
            throw error
        }
        return core.finishChange()
    }

    // MARK: State file, reload, children

    /// The user's state as entries for the state file.
    public func exportState() -> [StateEntry] { snapshot().exportState() }

    /// Applies state entries; see ``ModelCore/importState(_:)``.
    @discardableResult
    public func importState(_ entries: [StateEntry]) -> (change: Change, dropped: [DroppedState]) {
        core.importState(entries)
    }

    /// The model's state as it is now, to read on another thread.
    public func snapshot() -> ModelSnapshot { reading { $0.snapshot() } }

    /// Carries this model's user state into `next`; see
    /// ``ModelCore/carryState(into:with:)``.
    public func carryState(into next: MenuModel, with kept: [StateEntry] = []) -> (
        change: Change, dropped: [DroppedState]
    ) {
        core.carryState(into: &next.core, with: kept)
    }

    /// Replaces the children of the group at `path` with `children`, as building a
    /// model from the config with those children in place and carrying the state
    /// over would (``carryState(into:with:)``), in time that grows with the group and
    /// not with the menu: each `children-cmd` group among the new nodes gets
    /// `filling(path)` as its children, each `children-from` group what `provided`
    /// has for its source ("Loading…" while nothing), nothing is kept below ``MenuTree/maxDepth``,
    /// every node outside the group keeps its state, and a new node whose path an old
    /// child had takes that child's state where it can. Returns the change from the
    /// old rows to the new, and what was dropped. Rows are matched by path, so the
    /// same children again make no splice; a row whose path stays but that shows
    /// something else (its title, subtitle, icon, kind or bounds) is replaced by a
    /// splice of its own, for views that keep rows.
    ///
    /// Not for use inside a batch: it renumbers nodes, which a batch's undo is keyed by.
    public func replaceChildren(
        of g: Int, with children: [NodeSpec], filling: (String) -> [NodeSpec],
        provided: [ChildrenSource: [NodeSpec]] = [:]
    ) -> (change: Change, dropped: [DroppedState]) {
        let (groupPath, depth) = reading { ($0.tree.path(g), $0.tree.depth(g)) }
        // Outside any access to the state: `filling` is the caller's.
        let filled = withoutActuallyEscaping(filling) { commands in
            NodeSpec.filled(
                children, under: groupPath, depth: depth,
                filling: Filling(commands: commands, provided: provided))
        }
        return core.replaceChildren(of: g, withFilled: filled)
    }

    /// Whether the model has a `children-cmd` group: most menus have none, and the
    /// daemon asks after every change.
    public var hasChildrenCommands: Bool { !core.tree.childrenCommands.isEmpty }

    /// Every `children-cmd` group in the model, in tree order: those of the config
    /// and those its commands printed.
    public var childrenCommandGroups: [Int] { core.tree.childrenCommands.keys.sorted() }

    /// The `children-cmd` groups that run their command again while they are open
    /// (`refresh`), with how often, in tree order.
    public var refreshingGroups: [(node: Int, every: Duration)] {
        reading { m in
            m.tree.refreshIntervals.filter { m.tree.childrenCommands[$0.key] != nil }.sorted {
                $0.key < $1.key
            }
            .map { (node: $0.key, every: $0.value) }
        }
    }

    /// Every `children-from: applications` group in the model, in tree order.
    public var applicationGroups: [Int] { groups(from: [.applications]) }

    /// Every group whose children come from one of `sources`, in tree order.
    public func groups(from sources: Set<ChildrenSource>) -> [Int] {
        core.tree.childrenSources.filter { sources.contains($0.value) }.keys.sorted()
    }

    /// The `children-from` sources that the model's groups show.
    public var childrenSourcesShown: Set<ChildrenSource> { Set(core.tree.childrenSources.values) }

    /// Where the children of group `i` come from, when the daemon makes them.
    public func childrenSource(of i: Int) -> ChildrenSource? { core.tree.childrenSources[i] }

    /// Whether the model has `children-cmd` groups, and groups that refresh while
    /// open, in one read of its state: the daemon asks after every change, and most
    /// menus have neither.
    public var loadingGroups: (commands: Bool, refreshing: Bool) {
        reading { (!$0.tree.childrenCommands.isEmpty, !$0.tree.refreshIntervals.isEmpty) }
    }

    /// Whether the model has a `children-from: applications` group.
    public var hasApplicationGroups: Bool { core.tree.childrenSources.values.contains(.applications) }

    /// The nodes of `range` that the daemon follows by number: groups whose children
    /// come from a command or from the daemon, and nodes with a value source or an
    /// `on-change`. In tree order.
    public func followedNodes(in range: Range<Int>) -> [Int] {
        reading { m in
            var out = Set<Int>()
            for n in m.tree.childrenCommands.keys where range.contains(n) { out.insert(n) }
            for n in m.tree.childrenSources.keys where range.contains(n) { out.insert(n) }
            for n in m.tree.valueSources.keys where range.contains(n) { out.insert(n) }
            for n in m.tree.onChange.keys where range.contains(n) { out.insert(n) }
            return out.sorted()
        }
    }

    /// Whether group `g` shows no more than the "Loading…" row.
    public func showsOnlyLoadingRow(_ g: Int) -> Bool { reading { $0.showsOnlyLoadingRow(g) } }

    /// The nodes of `g`'s subtree, `g` not included: what a splice of its children
    /// replaces.
    public func descendants(of g: Int) -> Range<Int> { core.tree.descendants(g) }

    // MARK: For the focus cursors

    func visibleNode(atRow index: Int, in scope: Range<Int>) -> Int? {
        reading { $0.visibleNode(atRow: index, in: scope) }
    }
    func lastVisible(in scope: Range<Int>) -> Int { reading { $0.lastVisible(in: scope) } }
    func nearestVisible(_ i: Int) -> Int { reading { $0.nearestVisible(i) } }
}
