/// The first old state of every node an operation or batch touched. From it the
/// model computes what changed, and undoes everything when a batch fails, so a batch
/// applies all or nothing.
struct Journal {
    private(set) var oldExpanded = FirstStates<Bool>()
    private(set) var oldValues = FirstStates<Value?>()

    mutating func noteExpansion(_ i: Int, was old: Bool) { oldExpanded.note(i, old) }

    mutating func noteValue(_ i: Int, was old: Value?) { oldValues.note(i, old) }

    /// Forgets every note, keeping the storage for the next operation's.
    mutating func removeAll() {
        oldExpanded.removeAll()
        oldValues.removeAll()
    }
}

/// The first state noted for each node, in the order noted.
///
/// A list searched in order while it is short, with a dictionary beside it once
/// it is long: a toggle notes one or two nodes (a few more in an exclusive group) and
/// runs on every click, where a dictionary's allocation and hashing cost more than
/// the toggle itself; a recursive expand of a large menu notes thousands.
struct FirstStates<State>: Sequence {
    private var entries: [(node: Int, state: State)] = []
    private var positions: [Int: Int]?

    private static var listLimit: Int { 16 }

    /// Keeps `state` as `node`'s first, unless it has one already.
    mutating func note(_ node: Int, _ state: State) {
        if positions == nil {
            if entries.contains(where: { $0.node == node }) { return }
            if entries.count >= Self.listLimit {
                positions = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].node, $0) })
            }
        }
        if positions != nil {
            guard positions![node] == nil else { return }
            positions![node] = entries.count
        }
        entries.append((node, state))
    }

    mutating func removeAll() {
        if entries.capacity > Self.listLimit {
            entries = []
        } else {
            entries.empty()
        }
        if positions != nil { positions = nil }
    }

    subscript(node: Int) -> State? {
        if let positions { return positions[node].map { entries[$0].state } }
        return entries.first(where: { $0.node == node })?.state
    }

    func makeIterator() -> IndexingIterator<[(node: Int, state: State)]> { entries.makeIterator() }
}
