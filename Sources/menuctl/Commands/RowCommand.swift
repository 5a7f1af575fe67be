import ArgumentParser

struct RowCommand: RowRecordsCommand {
    static let configuration = CommandConfiguration(
        commandName: "row", abstract: "Show visible row N (0-based).")
    static let protocolName = "row"
    static let singleRow = true
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The row number.") var number: Int
    var protocolArguments: [String] { [String(number)] }
}
