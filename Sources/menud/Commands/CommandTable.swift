import MenuCore
import MenuProtocol

/// A protocol command as menud runs it: its row of ``CommandCatalog`` (arity, flags,
/// help), held as it is and checked in one place (``CommandTable/resolve(_:)``), so no handler re-checks
/// its arguments and `help` can never disagree with what is enforced, and its action.
///
/// A class, not a struct: every request's ``Invocation`` holds its command, and
/// copying a struct of its row's strings and flags and a closure costs a retain and
/// a release for each of them per request.
final class Command: Sendable {
    /// An ordinary command's body: its row of ``CommandBinding``, which hands its
    /// handler the parts of the service the handler needs.
    typealias Body = @Sendable (Invocation, MenuService, inout CommandOutput) throws(ProtocolError) -> Void

    enum Action: Sendable {
        /// An ordinary command: runs against the parts its binding hands it.
        case run(Body)
        /// A command that answers later, when its ``Completion`` completes; a failure
        /// with a ``ProtocolError`` is its `ERR`. Never batchable: a batch answers at once.
        case deferred(@Sendable (Invocation, MenuService) -> Completion<CommandOutput>)
        /// `begin` and `end` change how the dispatcher treats the requests between them.
        case beginBatch
        case endBatch
    }

    /// Its row of the catalog: name, usage, summary, arity, flags, batchability.
    let spec: CommandSpec
    var name: String { spec.name }
    var minArguments: Int { spec.minArguments }
    var maxArguments: Int { spec.maxArguments }
    var flags: [String] { spec.flags }
    /// Whether it may appear between `begin` and `end`. Commands with effects outside
    /// the model (running a program, closing the connection) cannot be undone, so they
    /// are not batchable.
    var batchable: Bool { spec.batchable }
    let action: Action
    /// The handler of a `.run` action (a no-op for the others), kept apart: taken out
    /// of the enum, it would be copied, its context retained and released, on every
    /// request; read from this constant it is not.
    let body: Body

    /// The command `name` of ``CommandCatalog``, doing its handler.
    convenience init(_ name: CommandName) {
        self.init(CommandCatalog.spec(name), action: CommandBinding.action(of: name))
    }

    /// A command of the given row, doing `action`; a command outside the catalog is
    /// for tests of the dispatcher only.
    init(_ spec: CommandSpec, action: Action) {
        precondition(spec.flags.count <= 64, "an invocation keeps its flags in 64 bits")
        self.spec = spec
        self.action = action
        if case .run(let body) = action {
            self.body = body
        } else {
            self.body = { _, _, _ in }
        }
    }

    var usageLine: String { spec.usageLine }
}

/// The registry of every command the daemon understands.
///
/// A class, so that the request path reaches its tables through one reference: as a
/// struct of five arrays, read out of ``MenuService`` for each request, it cost five
/// retains and five releases.
final class CommandTable: Sendable {
    let commands: [Command]
    /// By ``CommandName``, for in-process calls.
    private let byCommandName: [CommandName: Command]
    /// The commands' names, one after another, for a request's first word to be
    /// matched from its bytes, with no `String` made and hashed (``resolve(_:)``).
    private let names: [UInt8]
    /// Each command's name in ``names``: where it starts and how long it is.
    private let spans: [(start: Int, length: Int)]
    /// An open-addressing table of the commands' indices (-1 for a free slot), by a
    /// hash of a name's length and its first and last bytes: a name is found with one
    /// comparison of its bytes, nearly always, where a scan of the names of its length
    /// compared several (`get` and `row` have five such).
    private let slots: [Int]

    init(_ commands: [Command]) {
        self.commands = commands
        self.byCommandName = Dictionary(
            uniqueKeysWithValues: commands.compactMap { c in CommandName(rawValue: c.name).map { ($0, c) } })
        var names: [UInt8] = []
        var spans: [(start: Int, length: Int)] = []
        var size = 16
        while size < 4 * commands.count { size *= 2 }
        var slots = [Int](repeating: -1, count: size)
        for (i, command) in commands.enumerated() {
            let name = Array(command.name.utf8)
            precondition(!name.isEmpty, "a command has a name")
            spans.append((names.count, name.count))
            names.append(contentsOf: name)
            var slot = Self.hash(name.count, name[0], name[name.count - 1]) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = i
        }
        self.names = names
        self.spans = spans
        self.slots = slots
    }

    @inline(__always)
    private static func hash(_ length: Int, _ first: UInt8, _ last: UInt8) -> Int {
        length &* 67 ^ Int(first) &* 7 ^ Int(last)
    }

    /// The command whose name is `bytes`.
    @inline(__always)
    func command(named bytes: UnsafeBufferPointer<UInt8>) -> Command? {
        let length = bytes.count
        guard length > 0, let key = bytes.baseAddress else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(length, key[0], key[length - 1]) & mask
        while true {
            let index = slots[slot]
            guard index >= 0 else { return nil }
            let span = spans[index]
            // Bytes compared through pointers, without a bounds check each: the span
            // is within `names`, and `length` is both sides' count.
            if span.length == length,
                names.withUnsafeBufferPointer({ names in
                    guard let name = names.baseAddress?.advanced(by: span.start) else { return false }
                    var i = 0
                    while i < length, name[i] == key[i] { i &+= 1 }
                    return i == length
                })
            {
                return commands[index]
            }
            slot = (slot + 1) & mask
        }
    }

    static let standard = CommandTable(CommandName.allCases.map(Command.init))

    /// The command of the protocol `name`; a table made for a test without it
    /// has none.
    func command(_ name: CommandName) -> Command? { byCommandName[name] }

    /// Looks the command up and checks its arguments and flags. A bare `--` ends the
    /// flags, for arguments that start with `--` and come from a client that does not
    /// quote them.
    @inline(__always)
    func resolve(_ words: RequestWords) throws(ProtocolError) -> Invocation {
        guard !words.isEmpty else { throw ProtocolError(.badRequest, "empty request") }
        guard let command = words.withBytes(0, { self.command(named: $0) }) else {
            throw ProtocolError(.unknownCommand, "unknown command '\(words.text(0))': try 'help'")
        }
        // Flags may stand anywhere; only a request that has one needs its arguments
        // gathered apart.
        guard words.hasFlags else {
            let count = words.count - 1
            guard count >= command.minArguments, count <= command.maxArguments else {
                throw Self.arityError(command, count)
            }
            return Invocation(command: command, arguments: Arguments(words), flags: [])
        }
        var flags: Invocation.Flags = []
        var kept: [Int] = []
        var flagsEnded = false
        for i in 1..<words.count {
            if !flagsEnded, words.isFlag(i) {
                let flag = words.text(i)
                if flag == "--" {
                    flagsEnded = true
                    continue
                }
                guard let index = command.flags.firstIndex(of: flag) else {
                    throw ProtocolError(
                        .wrongArguments,
                        "\(command.name) has no flag \(flag); usage: \(command.usageLine)")
                }
                flags.insert(index)
            } else {
                kept.append(i)
            }
        }
        guard kept.count >= command.minArguments, kept.count <= command.maxArguments else {
            throw Self.arityError(command, kept.count)
        }
        return Invocation(command: command, arguments: Arguments(words, kept: kept), flags: flags)
    }

    private static func arityError(_ command: Command, _ count: Int) -> ProtocolError {
        ProtocolError(
            .wrongArguments,
            "\(command.name) takes \(describeArity(command)), got \(count); usage: \(command.usageLine)")
    }

    private static func describeArity(_ c: Command) -> String {
        func plural(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
        if c.minArguments == c.maxArguments { return plural(c.minArguments) }
        return "\(c.minArguments) to \(plural(c.maxArguments))"
    }
}
