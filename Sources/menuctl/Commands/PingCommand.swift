import ArgumentParser
import MenuProtocol

struct PingCommand: SilentCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.ping
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
