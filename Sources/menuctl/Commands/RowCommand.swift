import ArgumentParser
import MenuProtocol

struct RowCommand: NodeCommand {
    static let configuration = CommandConfiguration(
        commandName: "row", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.row
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The row number.") var number: Int
    var protocolArguments: [String] { [String(number)] }
}
