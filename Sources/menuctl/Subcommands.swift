import ArgumentParser
import MenuClient
import MenuCore
import MenuProtocol

// One type per protocol command. Their help texts are what `menuctl COMMAND --help`
// and the shell completions show; docs/protocol.md has the full story.

struct Rows: RowsCommand {
    static let configuration = CommandConfiguration(
        commandName: "rows", abstract: "Show the visible rows as a tree.")
    static let protocolName = "rows"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the subtree at this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}

struct Tree: RowsCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree", abstract: "Show every node, hidden ones too.")
    static let protocolName = "tree"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the subtree at this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}

struct Get: RowsCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Show one node.")
    static let protocolName = "get"
    static let singleRow = true
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path, ids joined by '/'.") var path: String
    var protocolArguments: [String] { [path] }

    /// A script asking for one node wants its record, not a one-line tree.
    func render(_ reply: ProtocolReply) {
        if global.json {
            let records = reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
            if let record = records.first { print(RowJSON.object(record)) }
        } else {
            for line in reply.lines { print(line) }
        }
    }
}

struct Row: RowsCommand {
    static let configuration = CommandConfiguration(
        commandName: "row", abstract: "Show visible row N (0-based).")
    static let protocolName = "row"
    static let singleRow = true
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The row number.") var number: Int
    var protocolArguments: [String] { [String(number)] }
}

/// The three commands that open or close one node share their arguments.
struct ExpansionArguments: ParsableArguments {
    @Argument(help: "The group or choice's path.") var path: String
    @Flag(help: "Also every group below it.") var recursive = false
}

struct Expand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand", abstract: "Open a group or choice.")
    static let protocolName = "expand"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var protocolArguments: [String] { [node.path] }
}

struct Collapse: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse", abstract: "Close a group or choice.")
    static let protocolName = "collapse"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var protocolArguments: [String] { [node.path] }
}

struct Toggle: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Open a closed group or close an open one.")
    static let protocolName = "toggle"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var protocolArguments: [String] { [node.path] }
}

struct ExpandAll: RequestCommand {
    static let configuration = CommandConfiguration(commandName: "expand-all", abstract: "Open every group.")
    static let protocolName = "expand-all"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}

struct CollapseAll: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse-all", abstract: "Close every group.")
    static let protocolName = "collapse-all"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}

struct ExpandTo: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand-to", abstract: "Open every ancestor of a node so that it is visible.")
    static let protocolName = "expand-to"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.") var path: String
    var protocolArguments: [String] { [path] }
}

struct Set: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set a value node.")
    static let protocolName = "set"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The value node's path.") var path: String
    /// Taken as it is even when it starts with `-` (`set display/volume -5`): a
    /// negative number is a value, not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "The new value as text (on/off, a number, an option id, text, YYYY-MM-DD).", valueName: "value"))
    var value: [String] = []
    /// `--` still ends the options, as it does for every other command.
    private var values: ArraySlice<String> { value.first == "--" ? value.dropFirst() : value[...] }
    var protocolArguments: [String] { [path] + values }

    func validate() throws {
        guard values.count == 1 else {
            throw ValidationError(
                values.isEmpty
                    ? "Missing expected argument '<value>'"
                    : "set takes one value, got \(values.count); quote a value with spaces")
        }
        try checkArguments()
    }
}

struct Activate: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Select a node: run an item, flip a toggle, pick an option, open or close a group.")
    static let protocolName = "activate"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.") var path: String
    var protocolArguments: [String] { [path] }
}

struct Save: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Write the daemon's state file now.")
    static let protocolName = "save"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}

struct Reload: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Load the config again; on errors the old menu stays and the errors are printed.")
    static let protocolName = "reload"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}

struct Ping: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: "Check that the daemon answers.")
    static let protocolName = "ping"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}

struct Version: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Show the protocol and daemon versions.")
    static let protocolName = "version"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}

struct Commands: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "commands", abstract: "List the daemon's protocol commands.")
    static let protocolName = "commands"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}

/// Requests given as whole protocol lines, for what has no subcommand of its own
/// (such as `help`) and for trying the protocol out.
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one raw protocol request line and print its data lines.",
        discussion: "The words are joined with spaces and sent as they are: quote as the protocol wants.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request, e.g. help get.") var words: [String]

    func validate() throws {
        if words.isEmpty { throw ValidationError("missing request") }
        if words.contains(where: { !ProtocolWords.canEncode($0) }) {
            throw ValidationError("a request cannot contain a newline")
        }
    }

    func run() throws {
        for line in try DaemonSession.send([words.joined(separator: " ")], options: global).lines {
            print(line)
        }
    }
}

/// `begin` … `end` around the given requests, applied all or none.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Apply several requests atomically (all or none).",
        discussion: """
            Each argument is one raw protocol request line, e.g. menuctl batch 'expand apps' 'set settings/wifi off'. \
            Without arguments, request lines are read from standard input.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Protocol request lines.") var requests: [String] = []

    func validate() throws {
        if requests.contains(where: { !ProtocolWords.canEncode($0) }) {
            throw ValidationError("each request must be one line")
        }
    }

    func run() throws {
        var lines = requests
        if lines.isEmpty {
            while let line = readLine() { lines.append(line) }
        }
        let reply = try DaemonSession.send(["begin"] + lines + ["end"], options: global)
        for line in reply.lines { print(line) }
    }
}
