import ArgumentParser

struct CommandsCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "commands", abstract: "List the daemon's protocol commands.")
    static let protocolName = "commands"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
