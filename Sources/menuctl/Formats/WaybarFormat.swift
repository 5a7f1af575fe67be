import MenuCore
import MenuProtocol

/// `--format waybar`: one line of JSON for a waybar `custom` module with
/// `return-type: json`. `text` is the rows side by side with the focused one in bold
/// (Pango markup), `alt` the focused path, `tooltip` the tree with the focused row in
/// bold, `class` the focused row's type and state, and `percentage` a focused range's
/// position. Menu text is escaped for Pango, which waybar reads in both.
struct WaybarFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let text = BarText.inline(view) { _, label, focused in
            focused ? "<b>\(InertText.pango(label))</b>" : InertText.pango(label)
        }
        let tooltip = view.rows.map { row in
            let line = InertText.pango(RowTree.line(row))
            return row.path == view.focus ? "<b>\(line)</b>" : line
        }.joined(separator: "\n")
        var members: [(String, String)] = [
            ("text", RowJSON.string(text)),
            ("alt", RowJSON.string(view.focus ?? "")),
            ("tooltip", RowJSON.string(tooltip)),
            ("class", "[" + BarText.classes(view).map(RowJSON.string).joined(separator: ",") + "]"),
        ]
        if let percentage = BarText.percentage(view) { members.append(("percentage", String(percentage))) }
        return RowJSON.members(members)
    }

    /// Class `disconnected`, so that a style can dim the module rather than show a
    /// menu that no longer answers.
    func disconnectedRender(socket: String) -> String? {
        RowJSON.members([
            ("text", RowJSON.string(BarText.notRunning)),
            ("alt", RowJSON.string("disconnected")),
            ("tooltip", RowJSON.string(InertText.pango(BarText.waiting(socket)))),
            ("class", "[" + RowJSON.string("disconnected") + "]"),
        ])
    }
}
