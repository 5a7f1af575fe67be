import ArgumentParser

struct FocusCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Move the focus to a node, opening its ancestors.")
    static let protocolName = "focus"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.") var path: String
    var protocolArguments: [String] { [path] }
}
