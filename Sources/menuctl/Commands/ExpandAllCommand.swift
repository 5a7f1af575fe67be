import ArgumentParser
import MenuProtocol

struct ExpandAllCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand-all", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.expandAll
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.", completion: PathCompletion.paths(.expandable)) var path: String?
    var subject: String? { path }
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
