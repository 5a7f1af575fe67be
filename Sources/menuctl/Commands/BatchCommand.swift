import ArgumentParser
import MenuProtocol

/// `begin` … `end` around the given requests, applied all or none.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Apply several requests atomically (all or none).",
        discussion: """
            Each argument is one raw protocol request line, e.g. menuctl batch 'expand apps' 'set settings/wifi off'. \
            Without arguments, request lines are read from standard input.
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
        let reply = try DaemonSession.send(["begin"] + lines + ["end"], options: global)
        for line in reply.lines { print(line) }
    }
}
