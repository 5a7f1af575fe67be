import MenuCore

/// `--format yambar`: one tag set for a yambar `script` module, ended by the empty
/// line that commits it (yambar-modules-script(5)). Tags: `text` (the rows side by
/// side), `focus` (the focused row), `path`, `type`, `state`, `value`, and `percent`
/// (a range's position, 0 for other rows). The empty line also delimits successive
/// tag sets under `watch`, which is how the script module reads a running script.
struct YambarFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let subject = BarText.subject(view)
        let tags: [(String, String, String)] = [
            ("text", "string", BarText.inline(view) { _, label, _ in label }),
            ("focus", "string", subject.map(RowTree.label) ?? ""),
            ("path", "string", subject?.path ?? ""),
            ("type", "string", subject?.type ?? ""),
            ("state", "string", subject?.state ?? ""),
            ("value", "string", subject?.value ?? ""),
            ("percent", "range:0-100", String(BarText.percentage(view) ?? 0)),
        ]
        return tags.map { "\($0.0)|\($0.1)|\($0.2.replacing("\n", with: " "))" }.joined(separator: "\n")
            + "\n"
    }
}
