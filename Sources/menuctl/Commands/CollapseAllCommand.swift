import ArgumentParser
import MenuProtocol

struct CollapseAllCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse-all", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.collapseAll
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.", completion: PathCompletion.paths(.expandable)) var path: String?
    var subject: String? { path }
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
