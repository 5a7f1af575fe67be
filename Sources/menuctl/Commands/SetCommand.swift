import ArgumentParser
import MenuProtocol

struct SetCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.set
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The value node's path.", completion: PathCompletion.paths(.values)) var path: String
    /// Taken as it is even when it starts with `-` (`set display/volume -5`): a
    /// negative number is a value, not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "The new value as text (on/off, yes/no, a number, an option id, text, YYYY-MM-DD).",
            valueName: "value"),
        completion: PathCompletion.values)
    var value: [String] = []
    /// `--` still ends the options, as it does for every other command.
    private var values: ArraySlice<String> { value.first == "--" ? value.dropFirst() : value[...] }
    var subject: String? { path }
    var protocolArguments: [String] { [path] + values }

    func validate() throws {
        guard values.count == 1 else {
            throw ValidationError(
                values.isEmpty
                    ? "Missing expected argument '<value>'"
                    : "set takes one value, got \(values.count); quote a value with spaces")
        }
        try checkArguments()
    }
}
