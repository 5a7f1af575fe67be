import MenuProtocol

/// `--format jgmenu`: jgmenu's CSV (jgmenu(1)), for `jgmenu --csv-cmd` or a
/// `--csv-file`. The menu is ``NativeMenu``: the top-level entries first, then, after
/// `^tag(NAME)`, each submenu's, opened with `^checkout(NAME)`; every name is
/// `menud:` and the node's path.
///
/// jgmenu reads a lot into a line: `,` ends a field, `"""` quotes one (and a lone one
/// makes it exit), a line that starts with `#`, `@` or `. ` is a comment, a widget or
/// a file to include, `^sep(`, `^checkout(`, `^pipe(` and their kind are actions, a
/// `\n` is a line break, the label is Pango markup, and a row without a command runs
/// its own label. So every row has a command of menuctl's making (text rows the
/// no-op `true`), and a label from the menu carries each of those characters as a
/// Pango character reference (`&#44;` for `,`), which jgmenu's own parsing never
/// sees and Pango draws as the character.
struct JgmenuFormat: ViewFormat {
    var menuctl: MenuctlInvocation

    /// jgmenu refuses a line of 8 KiB or more; a label longer than this, in Unicode
    /// scalars, is cut (with `…`), which keeps every line far below that.
    static let maxLabel = 256

    var showsEveryNode: Bool { true }

    func render(_ view: MenuView) -> String {
        var lines: [String] = []
        var pending: [NativeMenu.Submenu] = []
        func write(_ entries: [NativeMenu.Entry]) {
            for entry in entries {
                switch entry {
                case .submenu(let menu):
                    lines.append(row(menu.label, "^checkout(\(Self.tag(menu.path)))", menu.icon))
                    pending.append(menu)
                case .command(let label, let icon, let arguments):
                    lines.append(row(label, Self.command(menuctl.words + arguments), icon))
                case .text(let label, let icon):
                    lines.append(row(label, "true", icon))
                }
            }
        }
        let entries = NativeMenu(view).entries
        // jgmenu has nothing to show for an empty menu, and exits.
        write(entries.isEmpty ? [.text(label: "(empty)", icon: "")] : entries)
        var next = 0
        while next < pending.count {
            let menu = pending[next]
            next += 1
            lines.append("^tag(\(Self.tag(menu.path)))")
            write(menu.entries)
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ label: String, _ command: String, _ icon: String) -> String {
        let line = Self.label(label) + "," + command
        return Self.isPlainIcon(icon) ? line + "," + icon : line
    }

    /// A submenu's tag: node ids are letters, digits, `.`, `_` and `-`, so nothing in
    /// it ends the `^tag(…)` or a field.
    static func tag(_ path: String) -> String { "menud:" + path }

    /// `text` (one line, as ``NativeMenu`` makes labels) as a label: cut to
    /// ``maxLabel``, with every character that jgmenu or Pango would read as a
    /// reference.
    static func label(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        if scalars.count > maxLabel { scalars = Array(scalars.prefix(maxLabel - 1)) + ["…"] }
        // Pango's entities first: the references made next hold a `&` of their own.
        var out = ""
        for (k, scalar) in InertText.entities(String(String.UnicodeScalarView(scalars))).unicodeScalars
            .enumerated()
        {
            switch scalar {
            case ",", "\"", "^", "\\", "'":
                out += "&#\(scalar.value);"
            // Only where a line starts are they a comment, a widget, an included file.
            case "#" where k == 0, "@" where k == 0, "." where k == 0:
                out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `words` as a command for `sh -c`, as jgmenu runs it, in a CSV field: each word
    /// quoted for the shell, a `"` (which is then inside single quotes) closed out of
    /// them as `'\"'`, so that no two quotes meet and no `"""` can be formed, and the
    /// whole in `"""` when it holds a comma. ``RenderCommand`` refuses words with
    /// control characters, which would end the line.
    static func command(_ words: [String]) -> String {
        let line = words.map { ShellQuote.quote($0).replacing("\"", with: #"'\"'"#) }.joined(separator: " ")
        return line.contains(",") ? "\"\"\"" + line + "\"\"\"" : line
    }

    /// An icon name jgmenu can take as it is: a freedesktop name or a path, with
    /// nothing that would end the field. Any other is left out.
    static func isPlainIcon(_ icon: String) -> Bool {
        !icon.isEmpty
            && icon.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_./+".unicodeScalars.contains($0)
            }
    }
}
