import ArgumentParser
import MenuProtocol

struct RefreshCommand: SilentCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.refresh
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group's path.", completion: PathCompletion.paths(.expandable)) var path: String
    var protocolArguments: [String] { [path] }
}
