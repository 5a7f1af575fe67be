import ArgumentParser

struct ActivateCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Select a node: run an item, flip a toggle, pick an option, open or close a group.")
    static let protocolName = "activate"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.") var path: String
    var protocolArguments: [String] { [path] }
}
