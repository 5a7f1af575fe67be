import ArgumentParser
import MenuProtocol

struct FindCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: CommandCatalog.spec(protocolName).summary,
        discussion: """
            The query's words, split at spaces, must each match a node's title as shown \
            (values included), its keywords or the title of one of its groups, or all match \
            its path: their letters in order, not necessarily together, without regard to \
            case or accents. An exact title comes first, then the nodes that hold more of \
            the words themselves, then word starts and letters together, as fzf ranks them. \
            pick --search and rofi --search offer the same nodes in the same order. Each \
            line shows a node's path and where it is: the titles of its groups and its own.
            """)
    static let protocolName = CommandName.find
    @OptionGroup var global: GlobalOptions
    @Argument(help: "What to look for.") var query: String
    @Option(name: [.customShort("n"), .long], help: "How many answers at most (1 to 10000).") var limit: Int?
    var protocolArguments: [String] { [query] + (limit.map { [String($0)] } ?? []) }

    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        let found = reply.foundRecords
        let width = found.map { $0.path.count }.max() ?? 0
        return found.map { record in
            InertText.oneLine(record.path) + String(repeating: " ", count: width - record.path.count + 2)
                + InertText.oneLine(record.breadcrumbs)
        }
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        "["
            + reply.foundRecords.map { record in
                RowJSON.members([
                    ("path", RowJSON.string(record.path)),
                    ("type", RowJSON.string(record.type)),
                    ("title", RowJSON.string(record.title)),
                    ("value", RowJSON.string(record.value)),
                    ("breadcrumbs", RowJSON.string(record.breadcrumbs)),
                    ("matched", RowJSON.string(record.field)),
                    ("positions", "[" + record.positions.map(String.init).joined(separator: ",") + "]"),
                    ("score", String(record.score)),
                ])
            }.joined(separator: ",") + "]"
    }
}
