import MenuProtocol

/// A subcommand that changes the menu (expand, toggle, set, activate, nav, reload…):
/// its reply is change records, printed as the nodes they changed (``ChangeReport``).
protocol ChangeCommand: RequestCommand {
    /// The node the command names, shown when nothing changed (`expand` on an open group).
    var subject: String? { get }
}

extension ChangeCommand {
    var subject: String? { nil }

    /// The whole tree after the change, for the changed nodes' titles and rows.
    var followUps: [String] { ["tree"] }

    func report(_ reply: ProtocolReply, _ followUps: [ProtocolReply]) -> ChangeReport {
        ChangeReport(
            records: reply.records, tree: TreeRows(followUps.first?.rowRecords ?? []), subject: subject)
    }

    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        report(reply, followUps).textLines
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        report(reply, followUps).json
    }
}
