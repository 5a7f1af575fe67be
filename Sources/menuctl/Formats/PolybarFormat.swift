import MenuCore

/// `--format polybar`: text for a `custom/script` module with polybar's action tags.
/// Clicking a row focuses and activates it; over the whole module the wheel moves
/// the focus (`nav prev`/`nav next`), the right button goes `left` and the middle
/// button `right`. The focused row is drawn reversed.
struct PolybarFormat: ViewFormat {
    var menuctl: MenuctlInvocation

    func render(_ view: MenuView) -> String {
        let menu = MenuView.menu(of: view.scope).map { [$0] } ?? []
        let rows = BarText.inline(view) { row, label, focused in
            let click =
                menuctl.command(["focus", row.path]) + " >/dev/null; "
                + menuctl.command(["activate", row.path]) + " >/dev/null"
            let text = focused ? "%{R}\(InertText.polybar(label))%{R}" : InertText.polybar(label)
            return "%{A1:\(action(click)):}\(text)%{A}"
        }
        let wheel: [(button: Int, move: String)] = [(4, "prev"), (5, "next"), (3, "left"), (2, "right")]
        var text = rows
        for (button, move) in wheel.reversed() {
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
