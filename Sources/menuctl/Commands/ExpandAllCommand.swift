import ArgumentParser

struct ExpandAllCommand: RequestCommand {
    static let configuration = CommandConfiguration(commandName: "expand-all", abstract: "Open every group.")
    static let protocolName = "expand-all"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only below this path.") var path: String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
