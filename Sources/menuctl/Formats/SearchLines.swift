import MenuProtocol

/// The whole tree flattened for a launcher to filter as the user types: each node on
/// one line after the titles of its groups, as `find` shows where a node is
/// ("Settings › Network › Wi-Fi: on"). Every title is one line without control
/// characters (``InertText/oneLine(_:)``), so a title cannot add a row or a row option.
enum SearchLines {
    /// The titles of each row's ancestors, top first, for rows in tree order (each
    /// group before its children, with depths), as `tree` answers.
    static func ancestors(_ rows: [RowRecord]) -> [[String]] {
        var open: [(depth: Int, title: String)] = []
        return rows.map { row in
            while let last = open.last, last.depth >= row.depth { open.removeLast() }
            let titles = open.map(\.title)
            open.append((row.depth, InertText.oneLine(row.title)))
            return titles
        }
    }

    /// A node's line: its groups' titles, then its own with its value.
    static func line(_ row: RowRecord, ancestors: [String]) -> String {
        (ancestors + [RowTree.titleWithValue(row)]).joined(separator: FoundRecord.separator)
    }

    static func lines(_ rows: [RowRecord]) -> [String] {
        zip(rows, ancestors(rows)).map { line($0, ancestors: $1) }
    }
}
