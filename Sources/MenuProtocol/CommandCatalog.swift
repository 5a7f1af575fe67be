import MenuCore

/// What a protocol command is, apart from what it does: its name, arguments, flags
/// and help. One row per command, as in mpd's command table: menud dispatches from
/// these rows (its handlers are bound to the same ``CommandName``s) and checks every
/// request against them in one place, `help` prints them, and menuctl's subcommands
/// take their help from the same rows.
public struct CommandSpec: Sendable {
    public let name: String
    /// Argument names for the usage line, e.g. `PATH`; optional ones in brackets.
    public let usage: String
    public let summary: String
    public let minArguments: Int
    public let maxArguments: Int
    public let flags: [String]
    /// Whether it may appear between `begin` and `end`. Commands with effects outside
    /// the model (running a program, closing the connection) cannot be undone.
    public let batchable: Bool

    /// The row of a command outside the protocol's, for tests of a dispatcher.
    public init(
        _ name: String, _ usage: String, _ summary: String, arguments: ClosedRange<Int>, flags: [String] = [],
        batchable: Bool
    ) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.minArguments = arguments.lowerBound
        self.maxArguments = arguments.upperBound
        self.flags = flags
        self.batchable = batchable
    }

    /// The row of a command of the protocol.
    public init(
        _ name: CommandName, _ usage: String, _ summary: String, arguments: ClosedRange<Int>,
        flags: [String] = [], batchable: Bool
    ) {
        self.init(name.rawValue, usage, summary, arguments: arguments, flags: flags, batchable: batchable)
    }

    public var usageLine: String { usage.isEmpty ? name : "\(name) \(usage)" }
}

/// Every command of the protocol (docs/protocol.md, "Commands").
public enum CommandCatalog {
    /// Every row, in the order `help` and `commands` list them.
    public static let all: [CommandSpec] = CommandName.allCases.map(spec)

    /// The row of command `name`: a switch, so that no name is without its row.
    public static func spec(_ name: CommandName) -> CommandSpec {
        switch name {
        case .rows:
            CommandSpec(
                .rows, "[PATH]", "Show the visible rows, of the whole menu or of one subtree.",
                arguments: 0...1,
                batchable: true)
        case .tree:
            CommandSpec(
                .tree, "[PATH]", "Show every node, hidden ones too, of the whole menu or of one subtree.",
                arguments: 0...1, batchable: true)
        case .get:
            CommandSpec(.get, "PATH", "Show one node's row.", arguments: 1...1, batchable: true)
        case .row:
            CommandSpec(.row, "N", "Show visible row N (0-based).", arguments: 1...1, batchable: true)
        case .find:
            CommandSpec(
                .find, "QUERY [LIMIT]",
                "Search every node, hidden ones too, by title, keywords, groups' titles and path, fuzzily as fzf does: the best LIMIT (default 20) first.",
                arguments: 1...2, batchable: false)
        case .expand:
            CommandSpec(
                .expand, "PATH", "Open a group or choice (and every group below with --recursive).",
                arguments: 1...1, flags: ["--recursive"], batchable: true)
        case .collapse:
            CommandSpec(
                .collapse, "PATH", "Close a group or choice (and every group below with --recursive).",
                arguments: 1...1, flags: ["--recursive"], batchable: true)
        case .toggle:
            CommandSpec(
                .toggle, "PATH", "Open a closed group or close an open one; flip a toggle.", arguments: 1...1,
                flags: ["--recursive"], batchable: true)
        case .expandAll:
            CommandSpec(
                .expandAll, "[PATH]", "Open every group, in the whole menu or below PATH.", arguments: 0...1,
                batchable: true)
        case .collapseAll:
            CommandSpec(
                .collapseAll, "[PATH]", "Close every group, in the whole menu or below PATH.",
                arguments: 0...1,
                batchable: true)
        case .expandTo:
            CommandSpec(
                .expandTo, "PATH", "Open every ancestor of PATH so that its row is visible.",
                arguments: 1...1,
                batchable: true)
        case .set:
            CommandSpec(
                .set, "PATH VALUE", "Set a value node from text, checked by its rule.", arguments: 2...2,
                batchable: true)
        case .step:
            CommandSpec(
                .step, "PATH [DELTA]",
                "Change a range node by DELTA (+N or -N, in its units) or one step up, within its bounds and on its step.",
                arguments: 1...2, batchable: true)
        case .activate:
            CommandSpec(
                .activate, "PATH",
                "Select a node: run an item (detached, with /bin/sh -c), flip a toggle, pick an option, open or close a group.",
                arguments: 1...1, batchable: false)
        case .nav:
            CommandSpec(
                .nav, "MOVE [MENU] | key KEY [MENU]",
                "Move the focus or act on it, in MENU or the current menu: "
                    + NavMove.allCases.map(\.rawValue).joined(separator: "|")
                    + "; key KEY activates the focused group's child with access key KEY.",
                arguments: 1...3, batchable: false)
        case .focus:
            CommandSpec(
                .focus, "PATH", "Move the focus to PATH, opening its ancestors.", arguments: 1...1,
                batchable: false)
        case .open:
            CommandSpec(
                .open, "PATH",
                "Show PATH and focus it, opening its ancestors, and open it if it is a group or choice: a deep link.",
                arguments: 1...1, batchable: false)
        case .focused:
            CommandSpec(
                .focused, "[MENU]", "Show the focus of MENU, or of the current menu.", arguments: 0...1,
                batchable: true)
        case .ping:
            CommandSpec(.ping, "", "Check that the daemon answers.", arguments: 0...0, batchable: true)
        case .version:
            CommandSpec(
                .version, "", "Show the daemon's version and its protocol's (menuctl shows its own too).",
                arguments: 0...0, batchable: true)
        case .help:
            CommandSpec(
                .help, "[COMMAND]", "Describe every command, or one.", arguments: 0...1, batchable: false)
        case .commands:
            CommandSpec(
                .commands, "", "List the command names, one per line.", arguments: 0...0, batchable: false)
        case .close:
            CommandSpec(.close, "", "Answer OK and close the connection.", arguments: 0...0, batchable: false)
        case .subscribe:
            CommandSpec(
                .subscribe, "[TOPIC...]",
                "Receive an event line for every change from now on (topics: \(EventTopics.nameList); default all).",
                arguments: 0...EventTopics.names.count, batchable: false)
        case .save:
            CommandSpec(
                .save, "", "Write the daemon's state file now; an error (save-failed) when it cannot be.",
                arguments: 0...0,
                batchable: false)
        case .refresh:
            CommandSpec(
                .refresh, "PATH",
                "Run a children-cmd group's command again now, open or not; its children stay until the new ones come.",
                arguments: 1...1, batchable: false)
        case .reload:
            CommandSpec(
                .reload, "",
                "Load the config again, keeping expansion and values; on errors keep the old menu and answer them.",
                arguments: 0...0, batchable: false)
        case .begin:
            CommandSpec(
                .begin, "",
                "Start a batch: the following commands are queued and applied at 'end', all or none.",
                arguments: 0...0, batchable: false)
        case .end:
            CommandSpec(
                .end, "", "Apply the batch started by 'begin' and answer once for all of it.",
                arguments: 0...0,
                batchable: false)
        }
    }
}
