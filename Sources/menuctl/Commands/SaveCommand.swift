import ArgumentParser

struct SaveCommand: SilentCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Write the daemon's state file now.")
    static let protocolName = "save"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
