import ArgumentParser

struct FocusedCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "focused",
        abstract: "Print the focused node: a focus record with its menu and path.")
    static let protocolName = "focused"
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A top-level menu's id; default: the menu moved in last.") var menu: String?
    var protocolArguments: [String] { menu.map { [$0] } ?? [] }
}
