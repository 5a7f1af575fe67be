import MenuProtocol

/// The human form of rows: an indented tree with ▸ (collapsed) and ▾ (expanded).
enum RowTree {
    static func line(_ row: RowRecord) -> String { line(row, beforeTitle: "") }

    /// The line with `prefix` between the mark and the title, where rofi shows the
    /// access key.
    static func line(_ row: RowRecord, beforeTitle prefix: String) -> String {
        indent(row) + (arrow(row).isEmpty ? "  " : arrow(row) + " ") + prefix + titleWithValue(row)
    }

    static func indent(_ row: RowRecord) -> String { String(repeating: "  ", count: row.depth) }

    /// ▸ collapsed, ▾ expanded, ● picked option, ○ other option; empty for the rest.
    static func arrow(_ row: RowRecord) -> String {
        switch row.state {
        case "expanded": return "▾"
        case "collapsed": return "▸"
        case "selected": return "●"
        case "unselected": return "○"
        default: return ""
        }
    }

    /// The row on one line without indentation, as bars and launchers show it.
    static func label(_ row: RowRecord) -> String {
        arrow(row).isEmpty ? titleWithValue(row) : arrow(row) + " " + titleWithValue(row)
    }

    /// Titles usually show their value already ("Wi-Fi: on"); the value is added only
    /// when not. Always one line: every human form prints a row per line.
    static func titleWithValue(_ row: RowRecord) -> String {
        if !row.value.isEmpty, !row.title.contains(row.value) {
            return InertText.oneLine(row.title + "  [\(row.value)]")
        }
        return InertText.oneLine(row.title)
    }
}
