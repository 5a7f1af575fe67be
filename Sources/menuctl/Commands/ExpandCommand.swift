import ArgumentParser

struct ExpandCommand: ExpansionCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand", abstract: "Open a group or choice.")
    static let protocolName = "expand"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
}
