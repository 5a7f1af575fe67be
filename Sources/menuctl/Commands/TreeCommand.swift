import ArgumentParser

struct TreeCommand: RowRecordsCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree", abstract: "Show every node, hidden ones too.")
    static let protocolName = "tree"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?
    var protocolArguments: [String] { path.map { [$0] } ?? [] }
}
