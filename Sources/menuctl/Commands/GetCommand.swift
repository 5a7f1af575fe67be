import ArgumentParser
import MenuProtocol

struct GetCommand: NodeCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.get
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path, ids joined by '/'.", completion: PathCompletion.paths(.any)) var path:
        String
    var protocolArguments: [String] { [path] }
}
