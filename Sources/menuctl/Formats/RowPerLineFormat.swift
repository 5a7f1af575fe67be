/// A format that prints a line per row (tree, lines, a template). Under `watch`
/// each state is followed by an empty line, as paragraphs are; a state without rows
/// is that empty line alone.
protocol RowPerLineFormat: ViewFormat {}

extension RowPerLineFormat {
    func watchRender(_ view: MenuView) -> String {
        let text = render(view)
        return text.isEmpty ? "" : text + "\n"
    }
}
