import ArgumentParser
import MenuProtocol

struct TreeCommand: RowRecordsCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.tree
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
