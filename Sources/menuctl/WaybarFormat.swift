import MenuCore

/// `--format waybar`: one line of JSON for a waybar `custom` module with
/// `return-type: json`. `text` is the rows side by side with the focused one in bold
/// (Pango markup), `alt` the focused path, `tooltip` the tree, `class` the focused
/// row's type and state, and `percentage` a focused range's position.
struct WaybarFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let text = BarText.inline(view) { _, label, focused in
            focused ? "<b>\(BarText.pango(label))</b>" : BarText.pango(label)
        }
        let tooltip = view.rows.map { BarText.pango(RowTree.line($0)) }.joined(separator: "\n")
        var members: [(String, String)] = [
            ("text", RowJSON.string(text)),
            ("alt", RowJSON.string(view.focus ?? "")),
            ("tooltip", RowJSON.string(tooltip)),
            ("class", "[" + BarText.classes(view).map(RowJSON.string).joined(separator: ",") + "]"),
        ]
        if let percentage = BarText.percentage(view) { members.append(("percentage", String(percentage))) }
        return RowJSON.members(members)
    }
}
