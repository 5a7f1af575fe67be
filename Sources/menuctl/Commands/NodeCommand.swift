import MenuProtocol

/// A subcommand whose reply is one node's row (`get`, `row`). Both print the same way:
/// the node on one line (``NodeLine``), and for a stale one why (``StaleLine``), or
/// its row as one JSON object.
protocol NodeCommand: RequestCommand {}

extension NodeCommand {
    /// The rows below the node come from `tree`, asked for after the node.
    var followUps: [String] { ["tree"] }

    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        let tree = TreeRows(followUps.first?.rowRecords ?? [])
        return reply.rowRecords.flatMap { row in
            [NodeLine.text(row, in: tree)] + (row.stale ? [StaleLine.text(row)] : [])
        }
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        let tree = TreeRows(followUps.first?.rowRecords ?? [])
        return reply.rowRecords.first.map { NodeLine.json($0, in: tree) } ?? "null"
    }
}
