import MenuCore

/// The nodes with a `value-cmd`, by the group they are in, in the model's numbering:
/// what opening a group reads. Renumbered when the numbering changes, and made
/// again when the sources are followed (``MenuService/followLiveValues()``).
struct ValueCommandIndex {
    private var byGroup: [Int: [Int]] = [:]
    /// The entries it was made of.
    private var entries: [(node: Int, group: Int)] = []
    /// The groups, ascending: a click on any other group is told apart by a binary
    /// search, where hashing its number cost more than the rest of the check.
    private var groups: [Int] = []

    var isEmpty: Bool { groups.isEmpty }

    /// An index of `nodes`, each in its `group`.
    init(_ nodes: [(node: Int, group: Int)] = []) {
        entries = nodes
        for (n, g) in nodes { byGroup[g, default: []].append(n) }
        groups = byGroup.keys.sorted()
    }

    /// This index after the model's nodes moved, until the next is made.
    func renumbered(_ number: Renumbering) -> ValueCommandIndex {
        ValueCommandIndex(
            entries.compactMap { e in number(e.node).flatMap { n in number(e.group).map { (n, $0) } } })
    }

    /// The nodes with a `value-cmd` in group `g`, or nil when it has none.
    func nodes(in g: Int) -> [Int]? {
        var (low, high) = (0, groups.count)
        while low < high {
            let middle = (low + high) / 2
            if groups[middle] < g { low = middle + 1 } else { high = middle }
        }
        guard low < groups.count, groups[low] == g else { return nil }
        return byGroup[g]
    }
}
