import ArgumentParser
import MenuProtocol

struct ExpandCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.expand
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
