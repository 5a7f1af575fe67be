import MenuCore

/// Rows for rofi's script mode (rofi-script(5)): each row's indented label with
/// `\0info` (its path, handed back in `ROFI_INFO` on selection) and `\0icon`, after
/// the mode options. `keep-selection` keeps the cursor on a group that just opened or
/// closed (rofi 1.7.4 and later; older versions ignore it).
struct RofiFormat: ViewFormat {
    /// The prompt, and a message above the list when there is something to say.
    var prompt = "menu"
    var message: String?

    func render(_ view: MenuView) -> String {
        var lines = [
            RofiFormat.option("prompt", prompt), RofiFormat.option("no-custom", "true"),
            RofiFormat.option("keep-selection", "true"),
        ]
        if let message { lines.append(RofiFormat.option("message", message)) }
        for row in view.rows {
            var entry = RowTree.line(row) + "\0info\u{1f}" + row.path
            if !row.icon.isEmpty { entry += "\u{1f}icon\u{1f}" + row.icon }
            lines.append(entry)
        }
        return lines.joined(separator: "\n")
    }

    /// A mode option line: `\0key\x1fvalue`.
    static func option(_ key: String, _ value: String) -> String {
        "\0" + key + "\u{1f}" + value.replacing("\n", with: " ")
    }
}
