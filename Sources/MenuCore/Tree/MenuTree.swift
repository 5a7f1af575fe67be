/// The fixed shape of a loaded menu: every node in pre-order, in parallel arrays.
///
/// Pre-order puts a node's descendants right after it (`i + 1 ..< i + size[i]`), so a
/// subtree is a range, the next sibling is `i + size[i]`, and the visible rows are a
/// subsequence of the array. Parallel arrays of small integers keep a million-node
/// menu compact. Nothing here changes after loading but the children of a group that
/// ``MenuModel/replaceChildren(of:with:filling:)`` splices in; state lives in
/// ``MenuModel``.
///
/// ``MenuModel`` keeps the tree in a `var`, and a method called on it there is called
/// on a copy, which retains and releases each of its two dozen arrays (a third of the
/// daemon's time under load when it was measured). So
/// the small methods are inlined, and the lookups the model makes per request are
/// static functions of the fields they read (``node(at:index:ids:parents:)``,
/// ``path(_:ids:parents:)``), to which the model passes its tree's fields.
public struct MenuTree: Sendable {
    public let file: String
    package var ids: [String] = []
    package var kinds: [NodeKind] = []
    /// -1 for a top-level menu.
    var parents: [Int32] = []
    package var depths: [Int32] = []
    var sizes: [Int32] = []
    var positions: [Int32] = []
    var childCounts: [Int32] = []
    package var titles: [String] = []
    /// Titles and subtitles with placeholders, by node; most titles are plain.
    var titleTemplates: [Int: TitleTemplate] = [:]
    package var subtitles: [Int: TitleTemplate] = [:]
    package var icons: [Int: String] = [:]
    /// More words that find a node (`keywords:`), joined by spaces, by node.
    package var keywords: [Int: String] = [:]
    /// By node rather than sparse: most nodes of a big menu are items with a command.
    package var execs: [String?] = []
    package var onChange: [Int: String] = [:]
    /// Value nodes that read their value from the system, by node.
    package var valueSources: [Int: ValueSource] = [:]
    package var rules: [Int: ValueRule] = [:]
    package var initialValues: [Int: Value] = [:]
    package var initiallyExpanded: [Bool] = []
    package var exclusive: [Bool] = []
    /// Groups whose children come from a command, by node.
    package var childrenCommands: [Int: String] = [:]
    /// Command groups that run their command again while they are open, by node,
    /// with how often.
    package var refreshIntervals: [Int: Duration] = [:]
    /// Groups whose children the daemon makes itself (`children-from`), by node.
    package var childrenSources: [Int: ChildrenSource] = [:]
    /// Items that ask before they run, by node, with their question (see
    /// `Confirmation.swift`).
    var confirms: [Int: String] = [:]
    /// Each node's access key as a lowercase ASCII letter or digit, 0 for none: the
    /// config's `key:` or the default one (MenuTree+Keys.swift). One byte a node
    /// rather than a table, because nearly every node has one.
    package var keys: [UInt8] = []
    /// The keys the config gave (`key:`), by node; the rest were derived.
    package var explicitKeys: [Int: UInt8] = [:]
    /// Where each node starts in its file, as two 4-byte arrays rather than one of
    /// `SourceMark`, which is four times the size.
    var markLines: [Int32] = []
    var markColumns: [Int32] = []
    /// The top-level menus' positions.
    var roots: [Int] = []
    var childIndex = ChildIndex(ids: [], parents: [], depths: [])
    /// How many slots are vacant (``isVacant(_:)``).
    var vacantSlots = 0

    /// How many slots there are: the bound of node numbers, vacant slots included.
    public var count: Int { ids.count }
    /// How many nodes there are.
    public var nodeCount: Int { ids.count - vacantSlots }

    /// An empty tree, filled by ``append(parent:depth:position:)`` and the setters in
    /// `MenuTree+Building.swift`.
    package init(file: String) { self.file = file }

    /// The tree a loaded or assembled config describes, ready to serve.
    public init(config: MenuConfig) {
        self = config.nodes
        buildChildIndex()
        assignKeys()
    }

    /// The number of nodes in `i`'s subtree, `i` included.
    @inline(__always) public func size(_ i: Int) -> Int { Int(sizes[i]) }
    @inline(__always) public func parent(_ i: Int) -> Int? { parents[i] < 0 ? nil : Int(parents[i]) }
    public func kind(_ i: Int) -> NodeKind { kinds[i] }
    public func id(_ i: Int) -> String { ids[i] }
    public func depth(_ i: Int) -> Int { Int(depths[i]) }
    /// Deepest menu accepted: the loader refuses deeper ones, and a group this deep
    /// that a command fills shows one error row instead of its children. Deeper menus
    /// cannot be navigated anyway, and the bound lets passes over the tree recurse safely.
    public static let maxDepth = 64
    public func exec(_ i: Int) -> String? { execs[i] }
    public func onChangeCommand(_ i: Int) -> String? { onChange[i] }
    public func valueSource(_ i: Int) -> ValueSource? { valueSources[i] }
    public func refreshInterval(_ i: Int) -> Duration? { refreshIntervals[i] }
    public func rule(_ i: Int) -> ValueRule? { rules[i] }
    public var topLevel: [Int] { roots }

    /// Subtree of `i` without `i` itself.
    @inline(__always) public func descendants(_ i: Int) -> Range<Int> { (i + 1)..<(i + size(i)) }

    public func children(_ i: Int) -> some Sequence<Int> {
        let end = i + size(i)
        // The vacant block, if any, comes after the last child.
        return sequence(first: i + 1) { $0 + Int(self.sizes[$0]) }.prefix { $0 < end && self.depths[$0] >= 0 }
    }

    @inline(__always) func siblingCount(_ i: Int) -> Int {
        if let p = parent(i) { return Int(childCounts[p]) }
        return roots.count
    }

    /// The node's ids from the top, joined by `/`.
    @inline(__always) public func path(_ i: Int) -> String {
        // Rows are built per request, so this avoids the intermediate arrays of a
        // split-and-join: one pass up to size the string, one pass to fill it.
        if parents[i] < 0 { return ids[i] }
        let length = pathLength(i)
        // The closure captures these two arrays, not the whole tree.
        let (ids, parents) = (self.ids, self.parents)
        return String(unsafeUninitializedCapacity: length) { buffer in
            MenuTree.fillPath(i, ids: ids, parents: parents, into: buffer)
        }
    }

    /// The bytes of ``path(_:)`` appended to `bytes`, without making the `String`.
    @inline(__always) public func appendPath(of i: Int, to bytes: inout [UInt8]) {
        MenuTree.appendPath(i, ids: ids, parents: parents, to: &bytes)
    }

    /// ``appendPath(of:to:)`` from the two arrays it reads, as ``path(_:ids:parents:)``.
    static func appendPath(_ i: Int, ids: [String], parents: [Int32], to bytes: inout [UInt8]) {
        var length = -1
        var n = i
        while n >= 0 {
            length += ids[n].utf8.count + 1
            n = Int(parents[n])
        }
        bytes.append(contentsOf: repeatElement(0, count: length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = fillPath(
                i, ids: ids, parents: parents,
                into: UnsafeMutableBufferPointer(rebasing: buffer[(buffer.count - length)...]))
        }
    }

    /// The length in bytes of ``path(_:)``.
    @inline(__always) public func pathLength(_ i: Int) -> Int {
        var length = -1
        var n = i
        while n >= 0 {
            length += ids[n].utf8.count + 1
            n = Int(parents[n])
        }
        return length
    }

    /// ``path(_:)`` from the two arrays it reads: what ``MenuModel`` calls, passing
    /// its tree's fields, since calling a method on the tree it keeps copies the tree.
    static func path(_ i: Int, ids: [String], parents: [Int32]) -> String {
        if parents[i] < 0 { return ids[i] }
        var length = -1
        var n = i
        while n >= 0 {
            length += ids[n].utf8.count + 1
            n = Int(parents[n])
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            fillPath(i, ids: ids, parents: parents, into: buffer)
        }
    }

    private static func fillPath(
        _ i: Int, ids: [String], parents: [Int32], into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var end = buffer.count
        var n = i
        while n >= 0 {
            let id = ids[n].utf8
            end -= id.count
            _ = UnsafeMutableBufferPointer(rebasing: buffer[end..<(end + id.count)]).initialize(from: id)
            n = Int(parents[n])
            if n >= 0 {
                end -= 1
                buffer[end] = UInt8(ascii: "/")
            }
        }
        return buffer.count
    }

    /// The node at `path`; `nil` when no node has it.
    @inline(__always) public func node(at path: String) -> Int? {
        var path = path
        // The closure captures the index and two arrays, not the whole tree.
        let (index, ids, parents) = (childIndex, self.ids, self.parents)
        return path.withUTF8 { MenuTree.node(at: $0, index: index, ids: ids, parents: parents) }
    }

    /// Walks the components in place, in the path's own bytes, rather than splitting:
    /// every request with a path comes through here, and a split allocates an array
    /// and a string per component. Static, on the fields it reads, for the reason
    /// ``path(_:ids:parents:)`` is.
    static func node(
        at bytes: UnsafeBufferPointer<UInt8>, index: ChildIndex, ids: [String], parents: [Int32]
    ) -> Int? {
        var parent = -1
        var state = ChildIndex.root
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            if start < end {
                let id = UnsafeBufferPointer(rebasing: bytes[start..<end])
                state = ChildIndex.extend(state, id: id)
                guard let n = index.find(parent: parent, state: state, id: id, ids: ids, parents: parents)
                else { return nil }
                parent = n
            }
            start = end + 1
        }
        return parent < 0 ? nil : parent
    }
}
