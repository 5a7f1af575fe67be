import ArgumentParser
import MenuProtocol

struct FocusCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.focus
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The node's path.", completion: PathCompletion.paths(.any)) var path: String
    var subject: String? { path }
    var protocolArguments: [String] { [path] }
}
