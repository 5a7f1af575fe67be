import MenuCore
import MenuProtocol

/// `--format polybar`: text for a `custom/script` module with polybar's action tags.
/// Clicking a row focuses and activates it; over the whole module the wheel moves
/// the focus (`nav prev`/`nav next`), the right button goes `left` and the middle
/// button `right`. The focused row is drawn reversed. Over the focused row itself,
/// when it is a range, the wheel steps it (`nav increase`/`nav decrease`), as over a
/// slider: polybar has no horizontal wheel to give that its own gesture, and runs the
/// innermost action of a button, so the rest of the module still moves the focus.
struct PolybarFormat: ViewFormat {
    var menuctl: MenuctlInvocation

    func render(_ view: MenuView) -> String {
        let menu = MenuView.menu(of: view.scope).map { [$0] } ?? []
        let rows = BarText.inline(view) { row, label, focused in
            let click =
                menuctl.command(["focus", row.path]) + " >/dev/null; "
                + menuctl.command(["activate", row.path]) + " >/dev/null"
            let text = focused ? "%{R}\(InertText.polybar(label))%{R}" : InertText.polybar(label)
            let tagged = "%{A1:\(action(click)):}\(text)%{A}"
            guard focused && row.type == NodeKind.range.rawValue else { return tagged }
            return wrap(tagged, in: [(4, "increase"), (5, "decrease")], menu: menu)
        }
        return wrap(rows, in: [(4, "prev"), (5, "next"), (3, "left"), (2, "right")], menu: menu)
    }

    /// `text` inside an action per button, each `nav MOVE [MENU]`: fixed words and the
    /// menu's id, never menu text.
    private func wrap(_ text: String, in moves: [(button: Int, move: String)], menu: [String]) -> String {
        var text = text
        for (button, move) in moves.reversed() {
            let command = menuctl.command(["nav", move] + menu) + " >/dev/null"
            text = "%{A\(button):\(action(command)):}" + text + "%{A}"
        }
        return text
    }

    func disconnectedRender(socket: String) -> String? { InertText.polybar(BarText.notRunning) }

    /// In an action's command a `:` would end it; polybar takes `\:` for a literal one.
    /// Nothing else is read there. The command holds menuctl's own path, its socket and
    /// node ids (which are shell-safe words), never menu text.
    private func action(_ command: String) -> String {
        command.replacing(":", with: "\\:")
    }
}
