import ArgumentParser
import MenuProtocol

struct ExpandToCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand-to", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.expandTo
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.any)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
