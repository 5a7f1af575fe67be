import MenuIcons
import MenuProtocol

/// `--format openbox`: an openbox pipe menu (`<openbox_pipe_menu>`), which openbox
/// and labwc read from a `<menu execute="…"/>` of their own menu file. The menu is
/// ``NativeMenu``: a submenu per group, choice and range, written out in full, so
/// that no hover runs a command.
///
/// Text from the menu reaches the XML only as an attribute value, one line without
/// control characters or noncharacters (``NativeMenu``: XML 1.0 cannot carry them),
/// with `&`, `<`, `>`, `"` and `'` as entities and `_` doubled, since openbox reads
/// `_x` as the access key x. openbox takes an image file as an entry's `icon`, and a
/// menu's icons are names from the icon theme: each is resolved to a file by
/// ``IconTheme`` (the user's theme, its parents, hicolor), and left out when none is
/// found. The commands hold
/// menuctl's own words, fixed command words and node paths, escaped for
/// `g_shell_parse_argv`, which openbox and labwc split an Execute command with, and
/// for the `~` that openbox expands at the start of a word.
struct OpenboxFormat: ViewFormat {
    var menuctl: MenuctlInvocation
    /// Where icon names become files; nil to leave icons out.
    var icons: IconTheme?

    var showsEveryNode: Bool { true }

    func render(_ view: MenuView) -> String {
        var out = "<openbox_pipe_menu>\n"
        for entry in NativeMenu(view).entries { write(entry, indent: 1, to: &out) }
        out += "</openbox_pipe_menu>"
        return out
    }

    private func write(_ entry: NativeMenu.Entry, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        switch entry {
        case .submenu(let menu):
            // The id names the submenu among all of openbox's menus: from the path,
            // unique and made of id characters only.
            out += "\(pad)<menu id=\"menud:\(Self.xml(menu.path))\" label=\"\(Self.label(menu.label))\""
            out += icon(menu.icon) + ">\n"
            for child in menu.entries { write(child, indent: indent + 1, to: &out) }
            out += "\(pad)</menu>\n"
        case .command(let label, let icon, let arguments):
            out +=
                "\(pad)<item label=\"\(Self.label(label))\"\(self.icon(icon))><action name=\"Execute\"><command>"
            out += Self.xml(Self.commandLine(menuctl.words + arguments))
            out += "</command></action></item>\n"
        case .text(let label, let icon):
            out += "\(pad)<item label=\"\(Self.label(label))\"\(self.icon(icon))/>\n"
        }
    }

    /// The ` icon="FILE"` attribute for the icon `name`, or nothing.
    private func icon(_ name: String) -> String {
        guard let file = icons?.file(for: name) else { return "" }
        return " icon=\"\(Self.xml(file))\""
    }

    /// A label attribute's value: `_` doubled, then escaped.
    static func label(_ text: String) -> String { xml(text.replacing("_", with: "__")) }

    /// Text for an XML attribute or element: the five markup characters as entities.
    static func xml(_ text: String) -> String { InertText.entities(text, quotes: true) }

    /// `words` as one command line for `g_shell_parse_argv`: a word of only
    /// characters that are safe anywhere is written as it is; in any other word each
    /// character but those is escaped with a backslash, which that parser reads
    /// outside quotes as "this character itself". So a space stays inside its word,
    /// and a `~` follows a backslash, never the start of a word or a space, which is
    /// where openbox would put the home folder. ``RenderCommand`` refuses words with
    /// control characters, which a backslash cannot carry.
    static func commandLine(_ words: [String]) -> String {
        words.map { word in
            guard !word.isEmpty else { return "''" }
            var out = ""
            for character in word.unicodeScalars {
                if !ShellQuote.isSafe(character) { out += "\\" }
                out.unicodeScalars.append(character)
            }
            return out
        }.joined(separator: " ")
    }
}
