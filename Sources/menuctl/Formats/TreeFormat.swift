import MenuCore

/// `--format tree`: the indented tree `menuctl rows` prints, with a gutter marking
/// the focused row with `>`.
struct TreeFormat: RowPerLineFormat {
    func render(_ view: MenuView) -> String {
        view.rows.map { ($0.path == view.focus ? "> " : "  ") + RowTree.line($0) }.joined(separator: "\n")
    }
}
