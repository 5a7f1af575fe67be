import MenuCore

/// The baseline the model is measured against: the same tree and flags, but rows
/// found by scanning, as the seeds' `findParent` and flattened arrays do. Its answers
/// are checked against the model's before it is timed, so the comparison is fair.
struct NaiveRows {
    let tree: MenuTree
    var expanded: [Bool]

    init(_ model: MenuModel) {
        tree = model.tree
        expanded = (0..<model.tree.count).map { model.isExpanded($0) }
    }

    private func skip(_ i: Int) -> Int {
        tree.kind(i).isExpandable && !expanded[i] ? i + tree.size(i) : i + 1
    }

    /// Toggles and counts the rows it shows or hides, by walking the subtree.
    mutating func toggle(_ g: Int) -> Int {
        expanded[g].toggle()
        var shown = 0
        var i = g + 1
        let end = g + tree.size(g)
        while i < end {
            shown += 1
            i = skip(i)
        }
        return shown
    }

    func node(atRow n: Int) -> Int? {
        var row = 0
        var i = 0
        while i < tree.count {
            if row == n { return i }
            row += 1
            i = skip(i)
        }
        return nil
    }

    func row(of node: Int) -> Int? {
        var row = 0
        var i = 0
        while i < tree.count {
            if i == node { return row }
            if i > node { return nil }
            row += 1
            i = skip(i)
        }
        return nil
    }

    /// The nodes of `count` rows from row `first`.
    func window(from first: Int, count: Int) -> [Int] {
        guard var i = node(atRow: first) else { return [] }
        var out: [Int] = []
        while out.count < count, i < tree.count {
            out.append(i)
            i = skip(i)
        }
        return out
    }
}
