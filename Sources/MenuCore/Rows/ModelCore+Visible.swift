/// Visible-row arithmetic for the focus cursor, in O(log n) through the visibility
/// index, so that moving the cursor never walks the rows.
extension ModelCore {
    /// The node at visible row `index` when it lies in `scope`, else nil.
    func visibleNode(atRow index: Int, in scope: Range<Int>) -> Int? {
        guard let n = node(atRow: index), scope.contains(n) else { return nil }
        return n
    }

    /// The last visible node of `scope`, whose first node must be visible.
    func lastVisible(in scope: Range<Int>) -> Int {
        let first = rowIndex(of: scope.lowerBound) ?? 0
        let count = visibility.count(equalTo: 0, in: scope)
        return node(atRow: first + count - 1) ?? scope.lowerBound
    }

    /// `i` itself when visible, else its nearest visible ancestor.
    func nearestVisible(_ i: Int) -> Int {
        var n = i
        while visibility.value(at: n) != 0, let p = tree.parent(n) { n = p }
        return n
    }

    /// The top-level menu that `i` belongs to.
    func topLevel(of i: Int) -> Int {
        var n = i
        while let p = tree.parent(n) { n = p }
        return n
    }
}
