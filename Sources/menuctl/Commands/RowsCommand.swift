import ArgumentParser
import MenuProtocol

struct RowsCommand: RowRecordsCommand {
    static let configuration = CommandConfiguration(
        commandName: "rows", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.rows
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
