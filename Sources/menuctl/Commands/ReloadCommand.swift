import ArgumentParser
import MenuProtocol

struct ReloadCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.reload
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
