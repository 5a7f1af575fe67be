import ArgumentParser
import MenuProtocol

struct ActivateCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.activate
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.activatable)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
