import ArgumentParser

struct CollapseCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse", abstract: "Close a group or choice.")
    static let protocolName = "collapse"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
