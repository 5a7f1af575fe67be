import MenuProtocol

/// One node on one line, as `get` and `row` print it and as a change names the nodes
/// it changed: `▾ Power (4 rows)`, `Volume: 60%`, `● Dark`. A group or choice says how
/// many rows it shows when open, read from the `tree` rows around it.
enum NodeLine {
    static func text(_ row: RowRecord, in tree: [RowRecord]) -> String {
        guard let rows = rowsWhenOpen(row.path, in: tree) else { return RowTree.label(row) }
        return RowTree.label(row) + " (\(rows) row\(rows == 1 ? "" : "s"))"
    }

    /// The row as `--json` prints it, with `"rows"` the count the text shows.
    static func json(_ row: RowRecord, in tree: [RowRecord]) -> String {
        RowJSON.object(row, extra: rowsWhenOpen(row.path, in: tree).map { [("rows", String($0))] } ?? [])
    }

    /// How many rows the group or choice at `path` shows below it when open: its
    /// descendants whose ancestors under it are all open. Nil for other nodes, and
    /// when `tree` (rows in tree order, as `tree` answers) does not hold `path`.
    static func rowsWhenOpen(_ path: String, in tree: [RowRecord]) -> Int? {
        guard let start = tree.firstIndex(where: { $0.path == path }), tree[start].isExpandable else {
            return nil
        }
        let depth = tree[start].depth
        var count = 0
        // The depth of the closed node whose descendants are skipped, if any.
        var closedAt: Int?
        for row in tree[(start + 1)...] {
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
