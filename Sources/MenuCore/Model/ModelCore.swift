/// A menu's state as one value: the tree, which groups are open, what every value is,
/// which rows are visible, and the journal of the operation under way. Every
/// operation is a method of this value, mutating it in place: ``MenuModel``, which
/// owns it, makes one access to it per operation, and inside, every access to a
/// field is one the compiler checks statically rather than at run time.
struct ModelCore {
    /// Changes only where ``replaceChildren(of:with:filling:)`` splices a group.
    var tree: MenuTree
    var expanded: [Bool]
    var values: [Int: Value]
    /// The value nodes whose value is not known to be the system's (``ValueSource``),
    /// with why when the daemon said (nil until a source has answered).
    var stale: [Int: StaleReason?] = [:]
    var visibility: VisibilityIndex
    /// For each exclusive group, its open child branch, so that opening another one
    /// closes it in O(1) however wide the group is.
    var openChild: [Int: Int] = [:]
    /// While an operation or batch runs (``journaling``): the first old state of
    /// everything it touched, to compute the change and to undo it on failure.
    /// Emptied in place after each, rather than made anew: a toggle on every click
    /// then allocates nothing for its journal.
    var journal = Journal()
    var journaling = false
    /// The last change, whose storage the next one is written in.
    var lastChange = Change()
    /// The splice sizes the current operation's additions to the visibility index
    /// answered, for ``finishChange()``.
    var subtreeCounts = SubtreeCounts()
    /// Nodes whose titles read another node's value, by the node they read.
    private var readers: [Int: [Int]] = [:]
    /// Nodes whose title or subtitle names another node, ascending: what `readers`
    /// is built from again when a splice moves nodes.
    var referencing: [Int] = []
    /// Per node, goes up whenever anything its row shows changes (``rowVersion(of:)``).
    var rowVersions: [UInt32]
    /// Goes up whenever a splice gives nodes new numbers (``numbering``).
    var numbering = 0
    /// Goes up with every change to an expansion flag, a value or the tree: a
    /// ``ModelSnapshot`` taken at one revision describes the model as long as the
    /// revision is the same.
    var revision = 0
    /// What `find` searches, following the tree's splices.
    var search: SearchIndex

    init(config: MenuConfig) {
        self.init(tree: MenuTree(config: config))
    }

    init(tree: MenuTree) {
        self.init(
            tree: tree, expanded: tree.initiallyExpanded, values: tree.initialValues,
            search: SearchIndex(tree: tree))
    }

    /// The model a snapshot was taken of, for work done on another thread than the
    /// model's own.
    init(_ snapshot: ModelSnapshot) {
        self.init(
            tree: snapshot.tree, expanded: snapshot.expanded, values: snapshot.values, search: snapshot.search
        )
        revision = snapshot.revision
    }

    /// The model a snapshot was taken of, for reading its nodes and searching them
    /// only: no rows are indexed (``rowIndex(of:)`` and the rest of the visible rows
    /// are not to be asked), so it is made in time that does not grow with the menu.
    init(searching snapshot: ModelSnapshot) {
        tree = snapshot.tree
        search = snapshot.search
        expanded = snapshot.expanded
        values = snapshot.values
        revision = snapshot.revision
        rowVersions = []
        visibility = VisibilityIndex(count: 0)
    }

    private init(tree: MenuTree, expanded: [Bool], values: [Int: Value], search: SearchIndex) {
        self.tree = tree
        self.search = search
        self.expanded = expanded
        self.values = values
        rowVersions = [UInt32](repeating: 0, count: tree.count)
        visibility = VisibilityIndex(count: 0)
        indexVisibility()
        referencing = Set(tree.titleTemplates.keys).union(tree.subtitles.keys).filter {
            !(tree.titleTemplates[$0]?.references ?? []).isEmpty
                || !(tree.subtitles[$0]?.references ?? []).isEmpty
        }.sorted()
        indexReaders()
    }

    /// Builds the visibility index and each exclusive group's open child from the
    /// expansion flags.
    mutating func indexVisibility() {
        // Each node's count of collapsed ancestors, from one pre-order pass that keeps
        // the collapsed groups still open around the current node.
        var counts = [Int32](repeating: 0, count: tree.count)
        var closedEnds: [Int] = []
        openChild = [:]
        for i in 0..<tree.count {
            while let end = closedEnds.last, end <= i { closedEnds.removeLast() }
            // A vacant slot is never a row (MenuTree+Vacancy.swift).
            counts[i] = Int32(closedEnds.count) + (tree.isVacant(i) ? 1 : 0)
            if tree.kinds[i].isExpandable && !expanded[i] && tree.size(i) > 1 {
                closedEnds.append(i + tree.size(i))
            }
            if expanded[i], let p = tree.parent(i), tree.exclusive[p] { openChild[p] = i }
        }
        visibility = VisibilityIndex(counts: counts)
        subtreeCounts.removeAll()
    }

    /// Builds `readers` from `referencing`.
    mutating func indexReaders() {
        readers = [:]
        for i in referencing {
            for ref in references(of: i) where ref != i { readers[ref, default: []].append(i) }
        }
    }

    /// How many rows are visible in the whole menu.
    var rowCount: Int { visibility.count(equalTo: 0, in: 0..<tree.count) }

    // MARK: Lookups

    /// The node whose path is `bytes`, such as a request's word in the daemon's read
    /// buffer, without making a `String` of it; nil when there is none.
    func node(atPath bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        MenuTree.node(at: bytes, index: tree.childIndex, ids: tree.ids, parents: tree.parents)
    }

    /// The node at `path`, or nil; what every lookup by path comes through.
    func lookUp(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { node(atPath: $0) }
    }

    /// The node's path; what the model's own paths come from (see ``MenuTree``).
    func path(of i: Int) -> String { MenuTree.path(i, ids: tree.ids, parents: tree.parents) }

    /// The paths of `nodes`, in their order: for logs and tests, which name nodes as
    /// users do.
    func paths(of nodes: [Int]) -> [String] { nodes.map(path(of:)) }

    /// The node at `path`, or `noSuchNode`.
    func node(_ path: String) throws(MenuError) -> Int {
        guard let n = lookUp(path) else { throw .noSuchNode(path) }
        return n
    }

    /// The node shown at visible row `index`.
    func node(atRow index: Int) -> Int? {
        guard index >= 0 else { return nil }
        return visibility.position(ofNth: index, equalTo: 0, in: 0..<tree.count)
    }

    /// The visible row of node `i`, or nil when an ancestor is collapsed.
    func rowIndex(of i: Int) -> Int? {
        visibility.zeroRank(of: i)
    }

    func isExpanded(_ i: Int) -> Bool { expanded[i] }
    func value(of i: Int) -> Value? { values[i] }

    // MARK: Rows

    func row(at index: Int) throws(MenuError) -> Row {
        guard let n = node(atRow: index) else { throw .noSuchRow(index) }
        return makeRow(n, index: index)
    }

    func get(node n: Int) -> Row { makeRow(n, index: rowIndex(of: n)) }

    /// Visible rows: of the whole menu, or of one subtree as if its root were a
    /// top-level menu (its own ancestors' state does not hide it).
    func rows(under root: Int? = nil) -> [Row] {
        var out: [Row] = []
        for root in scope(root) {
            walk(root, all: false) { out.append($0) }
        }
        return out
    }

    /// Every node, with `index` nil for the hidden ones.
    func tree(under root: Int? = nil) -> [Row] {
        var out: [Row] = []
        for root in scope(root) {
            walk(root, all: true) { out.append($0) }
        }
        return out
    }

    /// Visible rows `range` of the whole menu, for a view that shows a window of them.
    func rows(in range: Range<Int>) -> [Row] {
        let clamped = range.clamped(to: 0..<rowCount)
        guard let first = clamped.first, var n = node(atRow: first) else { return [] }
        var out: [Row] = []
        out.reserveCapacity(clamped.count)
        var index = first
        while index < clamped.upperBound, n < tree.count {
            out.append(makeRow(n, index: index))
            index += 1
            n = nextVisible(after: n)
        }
        return out
    }

    private func scope(_ root: Int?) -> [Int] {
        guard let root else { return tree.roots }
        return [root]
    }

    /// The next visible node in pre-order after visible node `n`. Leaving `n`'s
    /// subtree lands on a sibling of `n` or of one of its ancestors, all of which are
    /// open, so the candidate is always visible.
    private func nextVisible(after n: Int) -> Int {
        var next = tree.kinds[n].isExpandable && !expanded[n] ? n + tree.size(n) : n + 1
        while next < tree.count, tree.isVacant(next) { next += tree.size(next) }
        return next
    }

    /// Pre-order walk of `root`'s subtree, into open groups only unless `all`.
    private func walk(_ root: Int, all: Bool, _ visit: (Row) -> Void) {
        var index = rowIndex(of: root)
        let end = root + tree.size(root)
        var i = root
        var hiddenUntil = -1
        while i < end {
            if tree.isVacant(i) {
                i += tree.size(i)
                continue
            }
            if i < hiddenUntil {
                // Inside a collapsed subtree: only reached when `all`.
                visit(makeRow(i, index: nil))
                i += 1
                continue
            }
            visit(makeRow(i, index: index))
            if index != nil { index! += 1 }
            if tree.kinds[i].isExpandable && !expanded[i] && tree.size(i) > 1 {
                if all {
                    hiddenUntil = i + tree.size(i)
                    i += 1
                } else {
                    i += tree.size(i)
                }
            } else {
                i += 1
            }
        }
    }

    func makeRow(_ i: Int, index: Int?) -> Row {
        let kind = tree.kinds[i]
        var selected: Bool?
        if kind == .option, let p = tree.parent(i), case .choice(let picked)? = values[p] {
            selected = picked == tree.ids[i]
        }
        return Row(
            index: index,
            path: path(of: i),
            depth: Int(tree.depths[i]),
            kind: kind,
            title: rowTitle(i),
            subtitle: tree.subtitles[i].map { render($0, node: i) },
            icon: tree.icons[i],
            expanded: kind.isExpandable ? expanded[i] : nil,
            value: values[i]?.description,
            selected: selected,
            position: Int(tree.positions[i]),
            siblings: tree.siblingCount(i),
            children: Int(tree.childCounts[i]),
            exec: tree.execs[i],
            bounds: tree.rules[i].flatMap(RangeBounds.init(rule:)),
            stale: isStale(i),
            key: tree.key(i),
            staleReason: staleReason(i)
        )
    }

    /// What node `i`'s row shows as its title: the rendered title, or while a
    /// confirmation is open, its question.
    func rowTitle(_ i: Int) -> String {
        let title = title(of: i)
        guard expanded[i], let question = tree.question(of: i, title: title) else { return title }
        return question
    }

    /// The rendered title of node `i`.
    func title(of i: Int) -> String {
        if let template = tree.titleTemplates[i] { return render(template, node: i) }
        return tree.titles[i]
    }

    private func render(_ template: TitleTemplate, node i: Int) -> String {
        var out = ""
        for segment in template.segments {
            switch segment {
            case .literal(let s): out += s
            case .ownValue: out += values[i]?.description ?? ""
            case .ownTitle: out += title(of: i)
            case .reference(let path):
                if let n = tree.node(at: path) { out += values[n]?.description ?? "" }
            }
        }
        return out
    }

    private func references(of i: Int) -> [Int] {
        let paths = (tree.titleTemplates[i]?.references ?? []) + (tree.subtitles[i]?.references ?? [])
        return paths.compactMap { tree.node(at: $0) }
    }

    /// Nodes whose title or subtitle shows the value of `i`, besides `i` itself.
    func readers(of i: Int) -> [Int] { readers[i] ?? [] }

    // MARK: The one primitive for expansion

    /// Sets one node's flag, keeping the visibility index and the exclusive-group
    /// bookkeeping in step, and journaling the old flag.
    mutating func setExpanded(_ i: Int, _ flag: Bool) {
        guard expanded[i] != flag else { return }
        if journaling { journal.noteExpansion(i, was: expanded[i]) }
        expanded[i] = flag
        revision &+= 1
        rowChanged(i)
        if tree.size(i) > 1 {
            let below = tree.descendants(i)
            let (minimum, count) = visibility.add(flag ? -1 : 1, over: below)
            if journaling { subtreeCounts.note(i, range: below, minimum: minimum, count: count) }
        }
        if let p = tree.parent(i), tree.exclusive[p] {
            if flag {
                openChild[p] = i
            } else if openChild[p] == i {
                openChild[p] = nil
            }
        }
    }

    mutating func setValue(_ i: Int, _ value: Value) {
        guard values[i] != value else { return }
        if journaling { journal.noteValue(i, was: values[i]) }
        values[i] = value
        valueDidChange(i)
    }

    /// Marks stale the rows that show node `i`'s value: its own, its readers', and
    /// for a choice its options' (which one is selected).
    mutating func valueDidChange(_ i: Int) {
        revision &+= 1
        rowChanged(i)
        for reader in readers[i] ?? [] { rowChanged(reader) }
        if tree.kinds[i] == .choice {
            for option in tree.descendants(i) { rowChanged(option) }
        }
    }

    /// Marks what views keep of node `i`'s row stale.
    @inline(__always) mutating func rowChanged(_ i: Int) { rowVersions[i] &+= 1 }

    /// Opens `i`, closing its open sibling first when its parent is exclusive.
    mutating func open(_ i: Int) {
        if let p = tree.parent(i), tree.exclusive[p], let other = openChild[p], other != i {
            setExpanded(other, false)
        }
        setExpanded(i, true)
    }

    /// The open child branch of an exclusive group, if any.
    func openBranch(of group: Int) -> Int? { openChild[group] }
}
