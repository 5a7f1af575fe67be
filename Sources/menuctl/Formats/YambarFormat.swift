import MenuCore
import MenuProtocol

/// `--format yambar`: one tag set for a yambar `script` module, ended by the empty
/// line that commits it (yambar-modules-script(5)). Tags: `text` (the rows side by
/// side), `focus` (the focused row), `path`, `type`, `state`, `value`, and `percent`
/// (a range's position, 0 for other rows). The empty line also delimits successive
/// tag sets under `watch`, which is how the script module reads a running script.
/// yambar splits a tag line at its first two `|` only and draws values as plain text,
/// so a value needs only to stay on its line.
struct YambarFormat: ViewFormat {
    func render(_ view: MenuView) -> String {
        let subject = BarText.subject(view)
        return Self.tagSet([
            ("text", "string", BarText.inline(view) { _, label, _ in label }),
            ("focus", "string", subject.map(RowTree.label) ?? ""),
            ("path", "string", subject?.path ?? ""),
            ("type", "string", subject?.type ?? ""),
            ("state", "string", subject?.state ?? ""),
            ("value", "string", subject?.value ?? ""),
            ("percent", "range:0-100", String(BarText.percentage(view) ?? 0)),
        ])
    }

    /// The same tags, with `state` `disconnected`, so that a particle can show it.
    func disconnectedRender(socket: String) -> String? {
        Self.tagSet([
            ("text", "string", BarText.notRunning), ("focus", "string", BarText.notRunning),
            ("path", "string", ""), ("type", "string", ""), ("state", "string", "disconnected"),
            ("value", "string", ""), ("percent", "range:0-100", "0"),
        ])
    }

    private static func tagSet(_ tags: [(String, String, String)]) -> String {
        tags.map { "\($0.0)|\($0.1)|\(InertText.oneLine($0.2))" }.joined(separator: "\n") + "\n"
    }
}
