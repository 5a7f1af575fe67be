import MenuProtocol

/// Every row of the menu in tree order, as `tree` answers, with each row found by its
/// path at once: a report names many nodes of a menu that may have a million.
struct TreeRows {
    let rows: [RowRecord]
    private let positions: [String: Int]

    init(_ rows: [RowRecord]) {
        self.rows = rows
        var positions: [String: Int] = [:]
        positions.reserveCapacity(rows.count)
        for (k, row) in rows.enumerated() { positions[row.path] = k }
        self.positions = positions
    }

    func row(_ path: String) -> RowRecord? { positions[path].map { rows[$0] } }

    /// How many rows the group or choice at `path` shows below it when open: its
    /// descendants whose ancestors under it are all open. Nil for other nodes, and
    /// when the tree does not hold `path`.
    func rowsWhenOpen(_ path: String) -> Int? {
        guard let start = positions[path], rows[start].isExpandable else { return nil }
        let depth = rows[start].depth
        var count = 0
        // The depth of the closed node whose descendants are skipped, if any.
        var closedAt: Int?
        for row in rows[(start + 1)...] {
            if row.depth <= depth { break }
            if let closed = closedAt {
                if row.depth > closed { continue }
                closedAt = nil
            }
            count += 1
            if row.isExpandable && !row.isExpanded { closedAt = row.depth }
        }
        return count
    }
}
