import ArgumentParser

struct CollapseCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse", abstract: "Close a group or choice.")
    static let protocolName = "collapse"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var subject: String? { node.path }
    var protocolArguments: [String] { [node.path] }
}
