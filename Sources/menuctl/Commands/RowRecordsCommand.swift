import MenuProtocol

/// A subcommand whose reply is rows (`rows`, `tree`): an indented tree, or a JSON array.
protocol RowRecordsCommand: RequestCommand {}

extension RowRecordsCommand {
    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        reply.rowRecords.map(RowTree.line)
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        RowJSON.array(reply.rowRecords)
    }
}
