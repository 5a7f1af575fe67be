import ArgumentParser
import MenuProtocol

struct ToggleCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.toggle
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
