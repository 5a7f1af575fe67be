import ArgumentParser

struct CollapseAllCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "collapse-all", abstract: "Close every group.")
    static let protocolName = "collapse-all"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
