import MenuProtocol

/// One node on one line, as `get` and `row` print it and as a change names the nodes
/// it changed: `▾ Power (4 rows)`, `Volume: 60%`, `● Dark`. A group or choice says how
/// many rows it shows when open, read from the `tree` rows around it.
enum NodeLine {
    static func text(_ row: RowRecord, in tree: TreeRows) -> String {
        guard let rows = tree.rowsWhenOpen(row.path) else { return RowTree.label(row) }
        return RowTree.label(row) + " (\(rows) row\(rows == 1 ? "" : "s"))"
    }

    /// The row as `--json` prints it, with `"rows"` the count the text shows.
    static func json(_ row: RowRecord, in tree: TreeRows) -> String {
        RowJSON.object(row, extra: tree.rowsWhenOpen(row.path).map { [("rows", String($0))] } ?? [])
    }
}
