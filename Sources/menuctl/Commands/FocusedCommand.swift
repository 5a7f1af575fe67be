import ArgumentParser
import MenuProtocol

struct FocusedCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "focused",
        abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.focused
    @OptionGroup var global: GlobalOptions
    @Argument(
        help: "A top-level menu's id; default: the menu moved in last.",
        completion: PathCompletion.paths(.menus))
    var menu: String?
    var protocolArguments: [String] { menu.map { [$0] } ?? [] }
    var followUps: [String] { ["tree"] }

    private func focus(_ reply: ProtocolReply) -> (menu: String, path: String)? {
        reply.records.first { $0.count >= 3 && $0[0] == "focus" }.map { ($0[1], $0[2]) }
    }

    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        guard let focus = focus(reply) else { return [] }
        let tree = TreeRows(followUps.first?.rowRecords ?? [])
        return [ChangeReport.focusLine(focus.path, row: tree.row(focus.path), in: tree)]
    }

    /// `{"menu", "path", "row"}`, the row as `get --json` prints it.
    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        guard let focus = focus(reply) else { return "null" }
        let tree = TreeRows(followUps.first?.rowRecords ?? [])
        return RowJSON.members([
            ("menu", RowJSON.string(focus.menu)), ("path", RowJSON.string(focus.path)),
            ("row", tree.row(focus.path).map { NodeLine.json($0, in: tree) } ?? "null"),
        ])
    }
}
