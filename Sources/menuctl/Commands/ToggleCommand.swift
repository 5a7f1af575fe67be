import ArgumentParser

struct ToggleCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Open a closed group or close an open one.")
    static let protocolName = "toggle"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
