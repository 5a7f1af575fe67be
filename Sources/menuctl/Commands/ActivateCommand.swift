import ArgumentParser

struct ActivateCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Select a node: run an item, flip a toggle, pick an option, open or close a group.")
    static let protocolName = "activate"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.activatable)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
