import ArgumentParser
import MenuClient
import MenuCore
import MenuProtocol

/// A subcommand that is one protocol request. Its help texts are what `menuctl COMMAND --help`
/// and the shell completions show; docs/protocol.md has the full story. Each conforming
/// type says which request it is and how its reply reads as text and as JSON; sending,
/// quoting, `--raw`, exit statuses and refusing a form it has not live here once.
protocol RequestCommand: ParsableCommand {
    var global: GlobalOptions { get }
    /// The protocol command name.
    static var protocolName: CommandName { get }
    /// Flags as the protocol spells them (`--recursive`).
    var protocolFlags: [String] { get }
    var protocolArguments: [String] { get }
    /// Why `--json` has no meaning for this command, or nil when it has a JSON form.
    static var withoutJSON: String? { get }
    /// Requests sent after this one on the same connection, whose replies the text and
    /// JSON forms read (the rows a node's line is made from). None with `--raw`.
    var followUps: [String] { get }
    /// The text form: lines for a person.
    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String]
    /// The JSON form, one document on one line.
    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String
}

extension RequestCommand {
    var protocolFlags: [String] { [] }
    static var withoutJSON: String? { nil }
    var followUps: [String] { [] }

    func validate() throws { try checkArguments() }

    /// What every request's arguments and options must be; a command with a
    /// `validate` of its own calls this too.
    func checkArguments() throws {
        if global.json, let reason = Self.withoutJSON {
            throw OutputStyle.json.refused(
                by: Self.configuration.commandName ?? Self.protocolName.rawValue, because: reason)
        }
        for argument in protocolArguments where !ProtocolWords.canEncode(argument) {
            throw ValidationError("arguments cannot contain a newline")
        }
    }

    mutating func run() throws {
        let line = ProtocolWords.request(
            Self.protocolName.rawValue, flags: protocolFlags, arguments: protocolArguments)
        switch global.style {
        case .raw:
            for line in try DaemonSession.send([line], options: global).lines { print(line) }
        case .text:
            let replies = try DaemonSession.requests([line] + followUps, options: global)
            for line in text(replies[0], followUps: Array(replies.dropFirst())) { print(line) }
        case .json:
            let replies = try DaemonSession.requests([line] + followUps, options: global)
            print(json(replies[0], followUps: Array(replies.dropFirst())))
        }
    }
}
