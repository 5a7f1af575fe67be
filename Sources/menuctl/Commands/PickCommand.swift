import ArgumentParser
import MenuCore
import MenuProtocol

/// `menuctl pick`: the accordion through any dmenu-style launcher. It shows the rows,
/// reads the choice, and acts as `menuctl rofi` does: a group or choice opens or
/// closes and the rows come back; an item, toggle or option is activated and pick
/// ends; a value node asks for its value and pick ends once it is set. With
/// `--search` it first asks what to look for, then offers the daemon's `find`
/// answers, so that it finds what `menuctl find` finds, in the same order.
struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose from the menu through a dmenu-style launcher.",
        discussion: """
            Examples: --launcher 'fuzzel --dmenu --index', --launcher 'wofi -d', \
            --launcher 'rofi -dmenu -format i -selected-row "$MENUCTL_ROW" -p "$MENUCTL_PROMPT"', \
            --launcher 'bemenu -I "$MENUCTL_ROW"', --launcher 'tofi --require-match=false', \
            --launcher dmenu. The prompt is in $MENUCTL_PROMPT; the 0-based index of the row to \
            highlight (the one last chosen, at first the focused one) in $MENUCTL_ROW, and that \
            row's line in $MENUCTL_ROW_TEXT. Exit status 1 when the user cancels. \
            With --search pick first asks what to look for, then lists what find answers, \
            hidden nodes too, best first, as "Settings › Network › Wi-Fi: on": \
            menuctl pick --search --launcher 'dmenu -i -l 20 -p "$MENUCTL_PROMPT"'.
            """)
    @OptionGroup var global: GlobalOptions

    @Option(help: "The launcher's command line, run with /bin/sh -c; it reads choices on standard input.")
    var launcher: String
    @Flag(
        help: ArgumentHelp(
            "The launcher prints the 0-based index of the choice rather than its text.",
            discussion: """
                Implied when the command line has rofi's '-format i' or fuzzel's '--index'. An \
                answer that is no line's index (fuzzel and rofi print -1 for text that matches \
                nothing) chooses nothing and ends pick as a cancel. Value prompts run the \
                launcher without that option, so that typed text comes back.
                """))
    var index = false
    @Flag(
        help: ArgumentHelp(
            "Ask what to look for, then offer what find answers for it: every node, best first.",
            discussion: """
                The query is typed into the launcher as a value is (run without its index option). \
                Choosing an answer acts on it as if its groups had been opened to reach it: an item \
                runs, a toggle flips, an option is picked, a value node asks for its value, and a \
                group or choice opens and the accordion goes on from there. Text typed at the \
                answers that is none of them is looked for in turn.
                """))
    var search = false
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?

    func validate() throws { try global.onlyText("pick", because: "the launcher shows the menu") }

    func run() throws {
        let command = LauncherCommand(launcher, index: index)
        // With --search pick first asks what to look for and offers what `find`
        // answers; once a group is chosen from it, the accordion goes on from there.
        var searching = search
        var prompt = searching ? "search" : "menu"
        // The node last chosen, whose row the launcher highlights when it shows the
        // rows again, as the user left them; before any, the daemon's focus.
        var chosenPath: String?
        while true {
            let target: RowRecord
            if searching {
                guard let found = try searched(command, prompt: &prompt) else { continue }
                target = try reveal(found)
                chosenPath = target.path
                prompt = "menu"
                if NodeKind(rawValue: target.type) == .group || NodeKind(rawValue: target.type) == .choice {
                    searching = false
                    continue
                }
            } else {
                let view = try MenuView.fetch(path, options: global)
                let rows = view.rows
                let lines = rows.map(RowTree.line)
                let highlight =
                    rows.firstIndex { $0.path == chosenPath } ?? rows.firstIndex { $0.path == view.focus }
                    ?? 0
                let shown =
                    command.takesIcons
                    ? zip(lines, rows).map { RofiFormat.dmenuLine($0, icon: $1.icon) } : lines
                let answer = try LauncherProcess.run(
                    command.command, input: shown.joined(separator: "\n") + "\n", prompt: prompt,
                    row: highlight, rowText: lines.indices.contains(highlight) ? lines[highlight] : "")
                guard answer.status == 0, let line = answer.line else { throw Self.cancelled }
                // An index launcher answers with a line's index and nothing else: fuzzel
                // and rofi print -1 when the text typed matches no line, and anything but
                // a line's index is no choice, never text to look for.
                if command.printsIndex, Self.index(line, lines: lines.count) == nil {
                    throw Self.nothingChosen
                }
                // Typed text that names no row is a slip, not a wish to leave: the list
                // comes back saying so (dmenu matches case-sensitively by default, and
                // sends what was typed when nothing matched).
                guard let i = chosen(line, lines: lines, index: command.printsIndex) else {
                    prompt = "no row matches '\(InertText.oneLine(line))'"
                    continue
                }
                target = rows[i]
                chosenPath = target.path
                prompt = "menu"
            }
            switch NodeKind(rawValue: target.type) {
            case .group, .choice:
                try request("activate", [target.path])
            case .range, .text, .date:
                if try askValue(target, command) { return }
            default:
                try request("focus", [target.path])
                try request("activate", [target.path])
                return
            }
        }
    }

    /// Asks what to look for, then offers `find`'s answers, best first: the chosen
    /// node's path, or nil when nothing matched (`prompt` then says so). The query is
    /// typed as a value is, the launcher run without its index option so that the
    /// text comes back. Text typed at the answers that is none of them is looked for
    /// in turn.
    private func searched(_ command: LauncherCommand, prompt: inout String) throws -> String? {
        let asked = try LauncherProcess.run(
            command.valueCommand, input: "", prompt: prompt, row: 0, rowText: "")
        guard asked.status == 0, var query = asked.line, !query.trimmingBlanks.isEmpty else {
            throw Self.cancelled
        }
        // A launcher that prints only indexes (`--index` declared it) sends no text.
        if command.valuePrintsIndex, Int(query.trimmingBlanks) != nil { throw Self.nothingChosen }
        while true {
            let found = try SearchLines.found(query, scope: path, options: global)
            guard !found.isEmpty else {
                let missed = "nothing matches '\(InertText.oneLine(query))'"
                // The same text again after it matched nothing: the user gives up.
                if prompt == missed { throw ClientFailure(status: ExitStatus.daemonError, message: missed) }
                prompt = missed
                return nil
            }
            let lines = found.map(SearchLines.line)
            let answer = try LauncherProcess.run(
                command.command, input: lines.joined(separator: "\n") + "\n",
                prompt: "search: " + InertText.oneLine(query), row: 0, rowText: lines[0])
            guard answer.status == 0, let line = answer.line else { throw Self.cancelled }
            if command.printsIndex {
                guard let i = Self.index(line, lines: lines.count) else { throw Self.nothingChosen }
                return found[i].path
            }
            if let i = lines.firstIndex(of: line)
                ?? lines.firstIndex(where: { $0.trimmingBlanks == line.trimmingBlanks })
            {
                return found[i].path
            }
            guard !line.trimmingBlanks.isEmpty else { throw Self.cancelled }
            query = line
        }
    }

    /// Shows a node found by search as if its groups had been opened to reach it:
    /// `open` focuses it, opening its ancestors, and opens it if it is a group or a
    /// choice. Returns its row as it is now.
    private func reveal(_ path: String) throws -> RowRecord {
        let replies = try DaemonSession.requests(
            [
                ProtocolWords.request("open", arguments: [path]),
                ProtocolWords.request("get", arguments: [path]),
            ],
            options: global)
        guard
            let row = replies[1].lines.lazy.compactMap({ RowRecord(fields: ProtocolFields.fields(of: $0)) })
                .first
        else { throw ClientFailure(status: ExitStatus.daemonError, message: "no row for \(path)") }
        return row
    }

    private static let cancelled = ClientFailure(status: ExitStatus.daemonError, message: "cancelled")
    private static let nothingChosen = ClientFailure(
        status: ExitStatus.daemonError, message: "cancelled: no line chosen")

    /// The line an index launcher chose: an index within `lines`; nil for anything else.
    private static func index(_ answer: String, lines: Int) -> Int? {
        guard let i = Int(answer.trimmingBlanks), (0..<lines).contains(i) else { return nil }
        return i
    }

    /// The chosen row: by index when the launcher prints one; else by the whole row as
    /// printed, with or without its indentation (some launchers trim it); else by what
    /// was typed, against titles without case: an exact title before a title that
    /// starts with it, before one that contains it, each in menu order. So "Dark"
    /// picks the option "Dark" over "Theme: Dark", and "sett" finds "Settings".
    private func chosen(_ answer: String, lines: [String], index: Bool) -> Int? {
        if index { return Self.index(answer, lines: lines.count) }
        if let i = lines.firstIndex(of: answer) { return i }
        let typed = answer.trimmingBlanks.lowercased()
        guard !typed.isEmpty else { return nil }
        if let i = lines.firstIndex(where: { $0.trimmingBlanks.lowercased() == typed }) { return i }
        let titles = lines.map { Self.title(ofLine: $0).lowercased() }
        return titles.firstIndex(of: typed) ?? titles.firstIndex { $0.hasPrefix(typed) }
            ?? titles.firstIndex { $0.contains(typed) }
    }

    /// A printed row without its indentation and its ▸/▾/●/○ mark.
    private static func title(ofLine line: String) -> Substring {
        let text = line.trimmingBlanks
        guard let first = text.first, "▸▾●○".contains(first) else { return text }
        return String(text.dropFirst()).trimmingBlanks
    }

    /// Asks for a value: the current one is offered, anything typed is taken. Returns
    /// whether it was set; a rejected value asks again with the error as the prompt.
    /// The launcher runs without its index option, as an index launcher cannot send
    /// what was typed. When no option could be dropped (`--index` declared it), 0
    /// chooses the value offered, another number nothing, and other text is typed.
    private func askValue(_ row: RowRecord, _ command: LauncherCommand) throws -> Bool {
        var prompt = row.title
        while true {
            let answer = try LauncherProcess.run(
                command.valueCommand, input: row.value + "\n", prompt: prompt, row: 0, rowText: row.value)
            guard answer.status == 0, var value = answer.line else { return false }
            if command.valuePrintsIndex, let i = Int(value.trimmingBlanks) {
                guard i == 0 else { return false }
                value = row.value
            }
            do throws(ClientFailure) {
                try request("set", [row.path, value])
                return true
            } catch {
                guard error.status == ExitStatus.daemonError else { throw error }
                prompt = error.message
            }
        }
    }

    private func request(_ command: String, _ arguments: [String]) throws(ClientFailure) {
        _ = try DaemonSession.send([ProtocolWords.request(command, arguments: arguments)], options: global)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) })
        else {
            return ""
        }
        return self[first...last]
    }
}
