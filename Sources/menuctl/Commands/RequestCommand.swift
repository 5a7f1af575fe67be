import ArgumentParser
import MenuClient
import MenuCore
import MenuProtocol

/// A subcommand that is one protocol request. Its help texts are what `menuctl COMMAND --help`
/// and the shell completions show; docs/protocol.md has the full story. Each conforming type only says which
/// request it is; sending, quoting, exit statuses and printing live here once.
protocol RequestCommand: ParsableCommand {
    var global: GlobalOptions { get }
    /// The protocol command name.
    static var protocolName: String { get }
    /// Flags as the protocol spells them (`--recursive`).
    var protocolFlags: [String] { get }
    var protocolArguments: [String] { get }
    /// How the reply is printed; by default the data lines as they are.
    func render(_ reply: ProtocolReply)
}

extension RequestCommand {
    var protocolFlags: [String] { [] }

    func render(_ reply: ProtocolReply) {
        for line in reply.lines { print(line) }
    }

    func validate() throws { try checkArguments() }

    /// What every request's arguments must be; a command with a `validate` of its own
    /// calls this too.
    func checkArguments() throws {
        for argument in protocolArguments where !ProtocolWords.canEncode(argument) {
            throw ValidationError("arguments cannot contain a newline")
        }
    }

    mutating func run() throws {
        let line = ProtocolWords.request(
            Self.protocolName, flags: protocolFlags, arguments: protocolArguments)
        render(try DaemonSession.send([line], options: global))
    }
}
