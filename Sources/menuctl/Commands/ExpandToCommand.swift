import ArgumentParser

struct ExpandToCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand-to", abstract: "Open every ancestor of a node so that it is visible.")
    static let protocolName = "expand-to"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.") var path: String
    var protocolArguments: [String] { [path] }
}
