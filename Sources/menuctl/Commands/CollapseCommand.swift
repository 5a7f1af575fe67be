import ArgumentParser
import MenuProtocol

struct CollapseCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.collapse
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
