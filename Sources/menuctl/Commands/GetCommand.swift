import ArgumentParser
import MenuProtocol

struct GetCommand: RowRecordsCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Show one node.")
    static let protocolName = "get"
    static let singleRow = true
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path, ids joined by '/'.") var path: String
    var protocolArguments: [String] { [path] }

    /// A script asking for one node wants its record, not a one-line tree.
    func render(_ reply: ProtocolReply) {
        if global.json {
            let records = reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
            if let record = records.first { print(RowJSON.object(record)) }
        } else {
            for line in reply.lines { print(line) }
        }
    }
}
