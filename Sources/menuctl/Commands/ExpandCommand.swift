import ArgumentParser

struct ExpandCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand", abstract: "Open a group or choice.")
    static let protocolName = "expand"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var subject: String? { node.path }
    var protocolArguments: [String] { [node.path] }
}
