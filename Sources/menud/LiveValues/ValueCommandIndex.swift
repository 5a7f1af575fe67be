/// The nodes with a `value-cmd`, by the group they are in, in the model's numbering:
/// what opening a group reads. Made again whenever the numbering changes
/// (``MenuService/followLiveValues()``).
struct ValueCommandIndex {
    private var byGroup: [Int: [Int]] = [:]
    /// The groups, ascending: a click on any other group is told apart by a binary
    /// search, where hashing its number cost more than the rest of the check.
    private var groups: [Int] = []

    var isEmpty: Bool { groups.isEmpty }

    /// An index of `nodes`, each in its `group`.
    init(_ nodes: [(node: Int, group: Int)] = []) {
        for (n, g) in nodes { byGroup[g, default: []].append(n) }
        groups = byGroup.keys.sorted()
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
