import MenuCore

/// `--format i3blocks`: the classic block output, three lines: full_text (the rows
/// side by side, the focused one in brackets), short_text (the focused row alone, for
/// when i3bar is short of room) and color (a focused toggle's on or off, else empty,
/// which keeps the bar's own). The text is plain: a block must not set
/// `markup=pango`, or `<` and `&` in a title would be read as markup.
struct I3blocksFormat: ViewFormat {
    static let onColor = "#50FA7B"
    static let offColor = "#6272A4"

    func render(_ view: MenuView) -> String {
        [fullText(view), BarText.subject(view).map(RowTree.label) ?? "", color(view)].joined(separator: "\n")
    }

    /// A block with `interval=persist` takes every line its command prints as a new
    /// full_text (i3blocks 1.4 reads no other field from it), so under `watch` a state
    /// is its full_text line alone.
    func watchRender(_ view: MenuView) -> String { fullText(view) }

    func disconnectedRender(socket: String) -> String? { BarText.notRunning }

    private func fullText(_ view: MenuView) -> String {
        BarText.inline(view) { _, label, focused in focused ? "[\(label)]" : label }
    }

    private func color(_ view: MenuView) -> String {
        guard let row = BarText.subject(view), row.type == NodeKind.toggle.rawValue else { return "" }
        return row.value == "on" ? Self.onColor : Self.offColor
    }
}
