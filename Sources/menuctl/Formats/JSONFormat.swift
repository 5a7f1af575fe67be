import MenuCore

/// `--format json`: `{"scope", "focus", "rows"}` on one line, each row as
/// `menuctl --json rows` prints it plus `"focused"`. Text stays exact here: JSON's
/// escapes make it data, and the reader (eww) shows it as plain text.
struct JSONFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let rows = view.rows.map {
            RowJSON.object($0, extra: [("focused", $0.path == view.focus ? "true" : "false")])
        }
        return RowJSON.members([
            ("scope", view.scope.map(RowJSON.string) ?? "null"),
            ("focus", view.focus.map(RowJSON.string) ?? "null"),
            ("rows", "[" + rows.joined(separator: ",") + "]"),
        ])
    }

    /// No rows, and `"disconnected": true`, a member only this state has.
    func disconnectedRender(socket: String) -> String? {
        RowJSON.members([("scope", "null"), ("focus", "null"), ("rows", "[]"), ("disconnected", "true")])
    }
}
