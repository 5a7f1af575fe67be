import ArgumentParser

struct RowCommand: NodeCommand {
    static let configuration = CommandConfiguration(
        commandName: "row", abstract: "Show visible row N (0-based), as get does.")
    static let protocolName = "row"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The row number.") var number: Int
    var protocolArguments: [String] { [String(number)] }
}
