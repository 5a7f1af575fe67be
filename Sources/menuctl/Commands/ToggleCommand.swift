import ArgumentParser

struct ToggleCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Open a closed group or close an open one.")
    static let protocolName = "toggle"
    @OptionGroup var global: GlobalOptions
    @OptionGroup var node: ExpansionArguments
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var protocolArguments: [String] { [node.path] }
}
