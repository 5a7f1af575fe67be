import ArgumentParser

struct ToggleCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Open a closed group or close an open one.")
    static let protocolName = "toggle"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var subject: String? { node.path }
    var protocolArguments: [String] { [node.path] }
}
