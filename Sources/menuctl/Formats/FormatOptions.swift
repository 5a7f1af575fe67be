import ArgumentParser
import MenuIcons

#if canImport(Glibc)
    import Glibc
#endif

/// The formats `--format` names.
enum FormatName: String, CaseIterable, ExpressibleByArgument {
    case tree, lines, json, waybar, i3blocks, polybar, yambar, openbox, jgmenu

    /// Formats a program reads once, as a whole menu with its commands, rather than
    /// follows: `watch` refuses them.
    var isReadOnce: Bool { self == .openbox || self == .jgmenu }
}

/// `--format` and `--template`, shared by every command that renders the menu.
struct FormatOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How to print the menu (render's default: tree).",
            discussion: """
                tree: indented rows with ▸/▾, the focused one marked with >. lines: one row per line. \
                json: an object with the focus and the rows. waybar: one line of JSON for a custom module. \
                i3blocks: full_text and short_text lines. polybar: text with click and scroll actions. \
                yambar: a tag set for a script module. openbox: a pipe menu for openbox or labwc, every \
                node in submenus. jgmenu: jgmenu's CSV, likewise. See docs/integrations.md.
                """))
    var format: FormatName?

    @Option(
        help: ArgumentHelp(
            "Print each row through a template instead of a format.",
            discussion:
                "Fields: " + RowTemplate.Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
                + "; {{ and }} are literal braces.",
            valueName: "template"))
    var template: String?

    @Option(
        help: ArgumentHelp(
            "The icon theme that --format openbox finds icon files in (default: GTK's, else hicolor).",
            valueName: "name"))
    var iconTheme: String?

    @Option(
        help: ArgumentHelp("The size in pixels of the icons --format openbox looks for.", valueName: "pixels")
    )
    var iconSize = 16

    /// Whether either option was given: `watch` keeps its own default when not.
    var isGiven: Bool { format != nil || template != nil }

    func validate() throws {
        if let template { _ = try RowTemplate(parsing: template) }
        guard iconSize > 0 else { throw ValidationError("--icon-size must be a number of pixels, 1 or more") }
    }

    /// Refuses a format whose commands cannot hold menuctl's own words: a control
    /// character in its path or socket would end the command's line.
    func checkCommands(_ invocation: MenuctlInvocation) throws {
        guard let format, format.isReadOnce else { return }
        if let word = invocation.words.first(where: {
            $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
        }) {
            throw ValidationError(
                "--format \(format.rawValue) cannot write a command with \(RowJSON.string(word)): "
                    + "it holds a control character")
        }
    }

    /// The icon theme of `--icon-theme` or GTK's settings, over the XDG data folders.
    private var icons: IconTheme {
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        return IconTheme(
            name: iconTheme ?? IconThemeSetting.themeName(environment), size: iconSize,
            baseDirectories: IconThemeSetting.baseDirectories(environment))
    }

    /// The format to print with. `invocation` is how click actions call menuctl back;
    /// `fallback` is used when neither option was given.
    func makeFormat(invocation: MenuctlInvocation, fallback: any ViewFormat = TreeFormat()) -> any ViewFormat
    {
        if let template, let parsed = try? RowTemplate(parsing: template) {
            return TemplateFormat(template: parsed)
        }
        switch format {
        case nil: return fallback
        case .tree: return TreeFormat()
        case .lines: return LinesFormat()
        case .json: return JSONFormat()
        case .waybar: return WaybarFormat()
        case .i3blocks: return I3blocksFormat()
        case .polybar: return PolybarFormat(menuctl: invocation)
        case .yambar: return YambarFormat()
        case .openbox: return OpenboxFormat(menuctl: invocation, icons: icons)
        case .jgmenu: return JgmenuFormat(menuctl: invocation)
        }
    }
}
