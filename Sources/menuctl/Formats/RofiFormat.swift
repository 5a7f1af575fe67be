import MenuCore
import MenuProtocol

/// Rows for rofi's script mode (rofi-script(5)): each row's indented label with
/// `\0info` (its path, handed back in `ROFI_INFO` on selection) and `\0icon`, after
/// the mode options. `keep-selection` keeps the cursor on a group that just opened or
/// closed (rofi 1.7.4 and later; 1.7.3 ignores it and moves the cursor to the first
/// row). Each row shows its access key in brackets before its title, as `nav key`
/// takes it; a row without one has blanks there, so that titles line up.
///
/// A row's text is one line without control characters (``InertText/oneLine(_:)``),
/// so neither a newline nor a NUL or `\x1f` from a title can start another row or
/// option. Rows are plain text (no `markup-rows`); the message is Pango markup.
struct RofiFormat: ViewFormat {
    /// The prompt, and a message above the list. rofi keeps a message until a page
    /// sends another, so every page sends one: empty when there is nothing to say.
    var prompt = "menu"
    var message = ""
    /// Whether typed text that is no row comes back (`rofi --search` takes it as a query).
    var custom = false

    func render(_ view: MenuView) -> String {
        var lines = header
        for row in view.rows {
            lines.append(RofiFormat.entry(RofiFormat.text(row), info: row.path, icon: row.icon))
        }
        return lines.joined(separator: "\n")
    }

    private var header: [String] {
        [
            RofiFormat.option("prompt", prompt), RofiFormat.option("no-custom", custom ? "false" : "true"),
            RofiFormat.option("keep-selection", "true"), RofiFormat.message(message),
        ]
    }

    /// A row's text: ``RowTree/line(_:)`` with the key after the arrow.
    static func text(_ row: RowRecord) -> String {
        RowTree.line(row, beforeTitle: row.key.isEmpty ? "    " : "[\(InertText.oneLine(row.key))] ")
    }

    /// A mode option line: `\0key\x1fvalue`.
    static func option(_ key: String, _ value: String) -> String {
        "\0" + key + "\u{1f}" + InertText.oneLine(value)
    }

    /// The message option, escaped for the Pango markup rofi reads it as.
    static func message(_ text: String) -> String { option("message", InertText.pango(text)) }

    /// A line of a dmenu-style list with its icon, as rofi's and fuzzel's dmenu modes
    /// read it (`TEXT\0icon\x1fNAME`); the line alone without one.
    static func dmenuLine(_ text: String, icon: String) -> String {
        icon.isEmpty ? text : text + "\0icon\u{1f}" + InertText.oneLine(icon)
    }

    /// A row with its info (given back on selection), an optional icon name, and
    /// optional search terms rofi matches but does not show.
    static func entry(_ text: String, info: String, icon: String = "", meta: String = "") -> String {
        var entry = InertText.oneLine(text) + "\0info\u{1f}" + InertText.oneLine(info)
        if !icon.isEmpty { entry += "\u{1f}icon\u{1f}" + InertText.oneLine(icon) }
        if !meta.isEmpty { entry += "\u{1f}meta\u{1f}" + InertText.oneLine(meta) }
        return entry
    }
}
