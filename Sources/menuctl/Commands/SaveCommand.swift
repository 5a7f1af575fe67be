import ArgumentParser
import MenuProtocol

struct SaveCommand: SilentCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.save
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
