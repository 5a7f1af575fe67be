import ArgumentParser

struct PingCommand: SilentCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: "Check that the daemon answers.")
    static let protocolName = "ping"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
