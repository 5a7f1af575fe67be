import ArgumentParser

struct ReloadCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Load the config again; on errors the old menu stays and the errors are printed.")
    static let protocolName = "reload"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
