import ArgumentParser
import MenuProtocol

/// Requests given as whole protocol lines, for what has no subcommand of its own
/// (such as `help`) and for trying the protocol out.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one raw protocol request line and print its records as they are.",
        discussion: "The words are joined with spaces and sent as they are: quote as the protocol wants.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request, e.g. help get.") var words: [String]

    func validate() throws {
        if global.json {
            throw OutputStyle.json.refused(
                by: "send", because: "it prints the protocol's records as they are")
        }
        if words.isEmpty { throw ValidationError("missing request") }
        if words.contains(where: { !ProtocolWords.canEncode($0) }) {
            throw ValidationError("a request cannot contain a newline")
        }
    }

    func run() throws {
        for line in try DaemonSession.send([words.joined(separator: " ")], options: global).lines {
            print(line)
        }
    }
}
