import MenuCore
import NIOCore

/// What a command handler writes into while it runs.
struct CommandOutput {
    /// The reply's data lines, as protocol bytes.
    var reply = RecordWriter()
    /// Set by `close`: the connection ends once the reply is flushed.
    var closeConnection = false
    /// Set by `subscribe`: the topics this connection now receives events for.
    var subscribe: EventTopics?
    /// What subscribers are told once the reply is on its way, in order. A change's
    /// events are built only when somebody listens (``events(in:)``): most changes
    /// come from a bar's click with nobody subscribed.
    private var notices: [Notice] = []
    /// The model changes the command made, for the state file and `on-change`.
    var changes: [Change] = []

    private enum Notice {
        case event(Event)
        case change(Change, spliceTopics: EventTopics)
    }

    /// Whether the command has anything to tell subscribers.
    var hasEvents: Bool { !notices.isEmpty }

    mutating func append(_ event: Event) { notices.append(.event(event)) }

    /// Reports a model change: its records in the reply, its events for subscribers.
    mutating func record(_ change: Change, in model: MenuModel, spliceTopics: EventTopics = .expansion) {
        guard !change.isEmpty else { return }
        for record in ChangeRecord.of(change, in: model) { record.write(to: &reply) }
        notices.append(.change(change, spliceTopics: spliceTopics))
        changes.append(change)
    }

    /// The events, in order, read from `model` as the command left it.
    func events(in model: MenuModel) -> [Event] {
        notices.flatMap { notice -> [Event] in
            switch notice {
            case .event(let event): return [event]
            case .change(let change, let topics): return change.events(in: model, spliceTopics: topics)
            }
        }
    }
}

/// A request whose name, arity and flags have been checked against its ``Command``.
struct Invocation {
    var command: Command
    var arguments: [String]
    var flags: Set<String>

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    /// The first argument, or nil when the command was given none.
    var path: String? { arguments.first }
}

/// The one entry per protocol command. Arity and flags are declared here and checked
/// in one place (``CommandTable/resolve(_:)``), as in mpd's command table, so no
/// handler re-checks its arguments and `help` can never disagree with what is enforced.
///
/// A class, not a struct: every request's ``Invocation`` holds its command, and
/// copying a struct of four strings, an array and a closure costs a retain and a
/// release for each of them per request.
final class Command: Sendable {
    enum Action: Sendable {
        /// An ordinary command: runs against the daemon's state.
        case run(@Sendable (Invocation, DaemonState, inout CommandOutput) throws(ProtocolError) -> Void)
        /// A command that answers later, when its future completes; a failure with a
        /// ``ProtocolError`` is its `ERR`. Never batchable: a batch answers at once.
        case deferred(@Sendable (Invocation, DaemonState) -> EventLoopFuture<CommandOutput>)
        /// `begin` and `end` change how the dispatcher treats the requests between them.
        case beginBatch
        case endBatch
    }

    let name: String
    /// Argument names for the usage line, e.g. `["PATH"]`; optional ones in brackets.
    let usage: String
    let summary: String
    let minArguments: Int
    let maxArguments: Int
    let flags: [String]
    /// Whether it may appear between `begin` and `end`. Commands with effects outside
    /// the model (running a program, closing the connection) cannot be undone, so they
    /// are not batchable.
    let batchable: Bool
    let action: Action

    init(
        name: String, usage: String, summary: String, minArguments: Int, maxArguments: Int,
        flags: [String] = [], batchable: Bool, action: Action
    ) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.minArguments = minArguments
        self.maxArguments = maxArguments
        self.flags = flags
        self.batchable = batchable
        self.action = action
    }

    var usageLine: String { usage.isEmpty ? name : "\(name) \(usage)" }
}

/// The registry of every command the daemon understands.
struct CommandTable: Sendable {
    let commands: [Command]
    private let byName: [String: Command]

    init(_ commands: [Command]) {
        self.commands = commands
        self.byName = Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0) })
    }

    static let standard = CommandTable(
        ServerCommands.all + ModelCommands.all + FocusCommands.all)

    func command(named name: String) -> Command? { byName[name] }

    /// Looks the command up and checks its arguments and flags. A bare `--` ends the
    /// flags, for arguments that start with `--` and come from a client that does not
    /// quote them.
    func resolve(_ words: [ProtocolWord]) throws(ProtocolError) -> Invocation {
        guard let first = words.first else { throw ProtocolError(.badRequest, "empty request") }
        guard let command = byName[first.text] else {
            throw ProtocolError(.unknownCommand, "unknown command '\(first.text)': try 'help'")
        }
        var arguments: [String] = []
        var flags: Set<String> = []
        var flagsEnded = false
        for word in words.dropFirst() {
            if !flagsEnded, word.isFlag {
                if word.text == "--" {
                    flagsEnded = true
                    continue
                }
                guard command.flags.contains(word.text) else {
                    throw ProtocolError(
                        .wrongArguments,
                        "\(command.name) has no flag \(word.text); usage: \(command.usageLine)")
                }
                flags.insert(word.text)
            } else {
                arguments.append(word.text)
            }
        }
        guard (command.minArguments...command.maxArguments).contains(arguments.count) else {
            throw ProtocolError(
                .wrongArguments,
                "\(command.name) takes \(Self.describeArity(command)), got \(arguments.count); usage: \(command.usageLine)"
            )
        }
        return Invocation(command: command, arguments: arguments, flags: flags)
    }

    private static func describeArity(_ c: Command) -> String {
        func plural(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
        if c.minArguments == c.maxArguments { return plural(c.minArguments) }
        return "\(c.minArguments) to \(plural(c.maxArguments))"
    }
}
