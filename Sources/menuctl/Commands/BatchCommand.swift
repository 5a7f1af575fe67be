import ArgumentParser
import MenuProtocol

/// `begin` … `end` around the given requests, applied all or none.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Apply several requests atomically (all or none).",
        discussion: """
            Each argument is one raw protocol request line, e.g. menuctl batch 'expand apps' 'set settings/wifi off'. \
            Without arguments, request lines are read from standard input. Prints the nodes the batch \
            changed, as toggle and set do.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Protocol request lines.") var requests: [String] = []

    func validate() throws {
        if requests.contains(where: { !ProtocolWords.canEncode($0) }) {
            throw ValidationError("each request must be one line")
        }
    }

    func run() throws {
        var lines = requests
        if lines.isEmpty {
            while let line = readLine() { lines.append(line) }
        }
        let batch = ["begin"] + lines + ["end"]
        if global.raw {
            for line in try DaemonSession.send(batch, options: global).lines { print(line) }
            return
        }
        // The batch answers once; `tree` after it gives the changed nodes' rows.
        let replies = try DaemonSession.exchange(batch + ["tree"], replies: 2, options: global)
        let report = ChangeReport(
            records: replies[0].records, tree: TreeRows(replies[1].rowRecords), subject: nil)
        if global.json {
            print(report.json)
        } else {
            for line in report.textLines { print(line) }
        }
    }
}
