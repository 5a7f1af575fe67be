import ArgumentParser
import MenuProtocol

struct OpenCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.open
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.any)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
