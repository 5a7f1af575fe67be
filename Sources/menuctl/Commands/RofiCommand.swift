import ArgumentParser
import MenuCore
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `menuctl rofi`: a rofi script-mode backend (rofi-script(5)), so that
/// `rofi -show menu -modi "menu:menuctl rofi" -show-icons` is the accordion. rofi runs it once
/// for the list and again with each selection; ROFI_RETV and ROFI_INFO say what was
/// selected. Groups toggle in place, toggles flip and options are picked (the list
/// comes back), items run (the list does not, so rofi closes), and value nodes ask
/// for their value.
///
/// The node whose value is being asked for is the daemon's focus, not state kept by
/// this process, because every step is a new process and old rofis cannot carry data
/// from one step to the next.
struct RofiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rofi",
        abstract: "Be a rofi script mode: rofi -show menu -modi \"menu:menuctl rofi\" -show-icons.",
        discussion: """
            rofi appends the selected entry as a last argument on later calls; it is ignored. \
            With --search, rofi first asks what to look for, then lists what find answers, \
            hidden nodes too, best first, each after its groups' titles ("Power › Session › \
            Lock"): rofi -show menu -modi "menu:menuctl rofi --search" -show-icons. Text typed \
            there that is no answer is looked for in turn. Choosing an answer acts on it as if \
            its groups had been opened: they open, an item runs, a toggle flips, a group opens \
            and the accordion goes on from there. --at PATH starts with PATH shown, focused and open: \
            rofi -show menu -modi "menu:menuctl rofi --at settings/network" -show-icons.
            """)
    @OptionGroup var global: GlobalOptions

    @Flag(help: "Ask what to look for, then list what find answers for it: every node, best first.")
    var search = false
    @Option(
        help: "Start with this node shown, focused, and open when it is a group or choice.",
        completion: PathCompletion.paths(.any))
    var at: String?

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("Only the subtree at this path, then rofi's selection.", valueName: "path"))
    var words: [String] = []

    func validate() throws { try global.onlyText("rofi", because: "it speaks rofi's script protocol") }

    func run() throws {
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        let retv = environment("ROFI_RETV").flatMap { Int($0) } ?? 0
        // rofi appends the selection on every call after the first.
        let scope = (retv == 0 ? words : words.dropLast()).first
        let selection = retv == 0 ? nil : words.last

        // rofi runs the same command line for every step: the deep link is for the first.
        if retv == 0, let at {
            _ = try DaemonSession.send([ProtocolWords.request("open", arguments: [at])], options: global)
        }
        switch retv {
        case 1:
            guard let info = environment("ROFI_INFO"), !info.isEmpty else { return try list(scope) }
            try selected(info, scope: scope)
        case 2 where search && !RofiPageMark.asking:
            try searchPage(selection ?? "", scope: scope)
        case 2:
            try typed(selection ?? "", scope: scope)
        default:
            RofiPageMark.asking = false
            if search { return searchPage(nil) }
            try list(scope)
        }
    }

    /// The search page: what to look for, and `find`'s answers for `query` when there
    /// is one, best first (SearchLines.swift), each given back with its path as a
    /// hidden node is. Text typed here comes back as a custom entry: the next query.
    private func searchPage(_ query: String, scope: String?) throws {
        let found = try SearchLines.found(query, scope: scope, options: global)
        let message =
            found.isEmpty
            ? "Nothing matches '\(InertText.oneLine(query))'. Type what to look for."
            : "Best first. Type to look for something else."
        print(
            (searchHeader(message)
                + found.map { RofiFormat.entry(SearchLines.line($0), info: Self.searched + $0.path) })
                .joined(separator: "\n"))
    }

    private func searchPage(_ query: String?) {
        print(searchHeader("Type what to look for, then Enter.").joined(separator: "\n"))
    }

    private func searchHeader(_ message: String) -> [String] {
        RofiPageMark.asking = false
        return [
            RofiFormat.option("prompt", "search"), RofiFormat.option("no-custom", "false"),
            RofiFormat.message(message),
        ]
    }

    private func selected(_ info: String, scope: String?) throws {
        if info == Self.back { return try list(scope) }
        if info.hasPrefix("=") {
            // A value offered by the value prompt: `=PATH=VALUE`.
            let rest = info.dropFirst()
            guard let split = rest.firstIndex(of: "=") else { return try list(scope) }
            return try set(String(rest[..<split]), String(rest[rest.index(after: split)...]), scope: scope)
        }
        // A node from the search rows is shown as if its groups had been opened to
        // reach it; `open` also opens it when it is a group or choice, where
        // activating would close one that was open under a closed group.
        let hidden = info.hasPrefix(Self.searched)
        let path = hidden ? String(info.dropFirst()) : info
        let replies = try DaemonSession.requests(
            [
                ProtocolWords.request(hidden ? "open" : "focus", arguments: [path]),
                ProtocolWords.request("get", arguments: [path]),
            ],
            options: global)
        guard
            let row = replies[1].lines.lazy.compactMap({ RowRecord(fields: ProtocolFields.fields(of: $0)) })
                .first
        else { return try list(scope) }
        switch NodeKind(rawValue: row.type) {
        case .range, .text, .date:
            try ask(row, message: nil)
        case .group where hidden, .choice where hidden:
            try list(scope)
        case .item:
            // Printing nothing closes rofi, which is what running an item should do.
            RofiPageMark.asking = false
            _ = try DaemonSession.send(
                [ProtocolWords.request("activate", arguments: [path])], options: global)
        default:
            _ = try DaemonSession.send(
                [ProtocolWords.request("activate", arguments: [path])], options: global)
            try list(scope)
        }
    }

    /// Text typed into the value prompt (the main list takes no custom entries): it is
    /// the value of the focused node.
    private func typed(_ text: String, scope: String?) throws {
        let focus = try MenuView.fetch(scope, options: global).focus
        guard let focus else { return try list(scope) }
        try set(focus, text, scope: scope)
    }

    private func set(_ path: String, _ value: String, scope: String?) throws {
        do throws(ClientFailure) {
            _ = try DaemonSession.send(
                [ProtocolWords.request("set", arguments: [path, value])], options: global)
        } catch let failure {
            guard failure.status == ExitStatus.daemonError else { throw failure }
            let reply = try DaemonSession.send(
                [ProtocolWords.request("get", arguments: [path])], options: global)
            guard
                let row = reply.lines.lazy.compactMap({ RowRecord(fields: ProtocolFields.fields(of: $0)) })
                    .first
            else { throw failure }
            return try ask(row, message: failure.message)
        }
        try list(scope)
    }

    private func list(_ scope: String?) throws {
        RofiPageMark.asking = false
        // With --search, text typed that is no row is a query.
        let format =
            search
            ? RofiFormat(prompt: "menu", message: "Type and Enter to search.", custom: true) : RofiFormat()
        print(format.render(try MenuView.fetch(scope, options: global)))
    }

    private static let back = "<"
    /// Starts the info of a search row: no id holds it.
    static let searched = "?"

    /// The value prompt: the current value first, then a few values to pick from, and
    /// custom text allowed. rofi highlights the first row of a new page (1.7.3 has no
    /// way to choose another), so Enter pressed at once must keep the value: the first
    /// row goes back to the menu without setting anything.
    private func ask(_ row: RowRecord, message: String?) throws {
        RofiPageMark.asking = true
        var lines = [
            RofiFormat.option("prompt", row.title), RofiFormat.option("no-custom", "false"),
            RofiFormat.message(message ?? Self.hint(row)),
            RofiFormat.entry("\(row.value)  (keep)", info: Self.back),
        ]
        for value in Self.suggestions(row) where value != row.value {
            lines.append(RofiFormat.entry(value, info: "=" + row.path + "=" + value))
        }
        print(lines.joined(separator: "\n"))
    }

    private static func hint(_ row: RowRecord) -> String {
        if let b = row.bounds {
            return "Pick or type a number from \(Value.format(b.min)) to \(Value.format(b.max)), "
                + "in steps of \(Value.format(b.step)) (now \(row.value))"
        }
        if row.type == NodeKind.date.rawValue { return "Type a date as YYYY-MM-DD (now \(row.value))" }
        return "Type the new text (now \(row.value))"
    }

    /// Every step of a range when there are not too many, else none.
    private static func suggestions(_ row: RowRecord) -> [String] {
        guard let b = row.bounds, b.step > 0, (b.max - b.min) / b.step <= 200 else { return [] }
        return stride(from: b.min, through: b.max, by: b.step).map(Value.format)
    }
}
