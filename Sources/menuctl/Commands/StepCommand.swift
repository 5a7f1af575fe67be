import ArgumentParser
import MenuProtocol

struct StepCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "step", abstract: CommandCatalog.spec(protocolName).summary,
        discussion: """
            The delta is signed, in the range's own units: +10 adds ten, -5 takes five away; \
            without one the range moves one step up. The result stays within the bounds, on \
            the nearest step from the minimum. `set` takes an absolute value instead.
            """)
    static let protocolName = CommandName.step
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The range node's path.", completion: PathCompletion.paths(.ranges)) var path: String
    /// Taken as it is even when it starts with `-` (`step display/volume -5`): a
    /// negative delta is a value, not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("+N or -N; default: one step up.", valueName: "delta"))
    var delta: [String] = []
    /// `--` still ends the options, as it does for every other command.
    private var deltas: ArraySlice<String> { delta.first == "--" ? delta.dropFirst() : delta[...] }
    var subject: String? { path }
    var protocolArguments: [String] { [path] + deltas }

    func validate() throws {
        guard deltas.count <= 1 else {
            throw ValidationError("step takes at most one delta, got \(deltas.count)")
        }
        try checkArguments()
    }
}
