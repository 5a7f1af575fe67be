import MenuCore

/// `--format lines`: one row per line, without indentation or focus, for pipes and
/// dmenu-style launchers.
struct LinesFormat: RowPerLineFormat {
    func render(_ view: MenuView) -> String {
        view.rows.map(RowTree.label).joined(separator: "\n")
    }
}
