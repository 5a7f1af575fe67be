import MenuCore

/// `--format i3blocks`: the classic block output, full_text on the first line (the
/// rows side by side, the focused one in brackets) and short_text on the second (the
/// focused row alone), for when i3bar is short of room.
struct I3blocksFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        fullText(view) + "\n" + oneLine(BarText.subject(view).map(RowTree.label) ?? "")
    }

    /// A block with `interval=persist` takes every line its command prints as a new
    /// full_text, so under `watch` a state is its full_text line alone.
    func watchRender(_ view: MenuView) -> String { fullText(view) }

    private func fullText(_ view: MenuView) -> String {
        oneLine(BarText.inline(view) { _, label, focused in focused ? "[\(label)]" : label })
    }

    /// A newline would start the next field of the block.
    private func oneLine(_ text: String) -> String { text.replacing("\n", with: " ") }
}
