import MenuCore

/// `--format i3blocks`: the classic block output, full_text on the first line (the
/// rows side by side, the focused one in brackets) and short_text on the second (the
/// focused row alone), for when i3bar is short of room.
struct I3blocksFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let full = BarText.inline(view) { _, label, focused in focused ? "[\(label)]" : label }
        let short = BarText.subject(view).map(RowTree.label) ?? ""
        return oneLine(full) + "\n" + oneLine(short)
    }

    /// A newline would start the next field of the block.
    private func oneLine(_ text: String) -> String { text.replacing("\n", with: " ") }
}
