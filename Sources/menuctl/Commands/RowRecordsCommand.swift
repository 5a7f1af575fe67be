import MenuProtocol

/// A subcommand whose reply is row records, printed as a tree or as JSON.
protocol RowRecordsCommand: RequestCommand {
    /// Whether `--json` prints one object rather than an array.
    static var singleRow: Bool { get }
}

extension RowRecordsCommand {
    static var singleRow: Bool { false }

    func render(_ reply: ProtocolReply) {
        let records = reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
        if global.json {
            print(Self.singleRow && records.count == 1 ? RowJSON.object(records[0]) : RowJSON.array(records))
        } else {
            for record in records { print(RowTree.line(record)) }
        }
    }
}
