import ArgumentParser

struct ExpandToCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand-to", abstract: "Open every ancestor of a node so that it is visible.")
    static let protocolName = "expand-to"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.any)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
