import ArgumentParser
import MenuProtocol

/// The daemon's own `help`: every protocol command with its usage and summary, which
/// `send` and `batch` take.
struct CommandsCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "commands", abstract: "List the daemon's protocol commands with their usage.")
    static let protocolName = CommandName.help
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only this protocol command.") var command: String?
    var protocolArguments: [String] { command.map { [$0] } ?? [] }

    private func entries(_ reply: ProtocolReply) -> [(name: String, usage: String, summary: String)] {
        reply.records.filter { $0.count >= 4 && $0[0] == "help" }.map { ($0[1], $0[2], $0[3]) }
    }

    /// The usage (which starts with the name) in a column, then the summary.
    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        let entries = entries(reply).map {
            (InertText.oneLine($0.usage.isEmpty ? $0.name : $0.usage), $0.summary)
        }
        let width = entries.map(\.0.count).max() ?? 0
        return entries.map { usage, summary in
            usage + String(repeating: " ", count: width - usage.count + 2) + InertText.oneLine(summary)
        }
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        "["
            + entries(reply).map {
                RowJSON.members([
                    ("name", RowJSON.string($0.name)), ("usage", RowJSON.string($0.usage)),
                    ("summary", RowJSON.string($0.summary)),
                ])
            }.joined(separator: ",") + "]"
    }
}
