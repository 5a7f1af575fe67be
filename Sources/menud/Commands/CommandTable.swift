import MenuCore
import MenuProtocol

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
        /// A command that answers later, when its ``Completion`` completes; a failure
        /// with a ``ProtocolError`` is its `ERR`. Never batchable: a batch answers at once.
        case deferred(@Sendable (Invocation, DaemonState) -> Completion<CommandOutput>)
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
    func resolve(_ words: RequestWords) throws(ProtocolError) -> Invocation {
        guard !words.isEmpty else { throw ProtocolError(.badRequest, "empty request") }
        // A command's name is short enough to be a `String` without an allocation.
        let name = words.text(0)
        guard let command = byName[name] else {
            throw ProtocolError(.unknownCommand, "unknown command '\(name)': try 'help'")
        }
        // Flags may stand anywhere; only a request that has one needs its arguments
        // gathered apart.
        var arguments = Arguments(words)
        var flags: Set<String> = []
        if (1..<words.count).contains(where: words.isFlag) {
            var kept: [Int] = []
            var flagsEnded = false
            for i in 1..<words.count {
                if !flagsEnded, words.isFlag(i) {
                    let flag = words.text(i)
                    if flag == "--" {
                        flagsEnded = true
                        continue
                    }
                    guard command.flags.contains(flag) else {
                        throw ProtocolError(
                            .wrongArguments,
                            "\(command.name) has no flag \(flag); usage: \(command.usageLine)")
                    }
                    flags.insert(flag)
                } else {
                    kept.append(i)
                }
            }
            arguments = Arguments(words, kept: kept)
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
