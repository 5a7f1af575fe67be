import ArgumentParser
import MenuCore
import MenuProtocol

/// The focus cursor's commands (nav, focus, focused) act on a cursor the daemon keeps,
/// one per top-level menu, so a bar's scroll wheel, a key binding and every render agree on it.
struct NavCommand: ChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "nav",
        abstract: CommandCatalog.spec(protocolName).summary,
        discussion: """
            Moves, as in a tree widget: next, prev, first, last, parent, child, expand, collapse, \
            left (close, else go to the parent), right (open, else go to the first child), \
            activate (select the focused node), increase and decrease (step a focused range; \
            elsewhere nothing). Meant for a bar's scroll wheel and for key bindings.
            """)
    static let protocolName = "nav"
    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp("The move.", valueName: "move"),
        completion: .list(NavMove.allCases.map(\.rawValue)))
    var move: String
    @Argument(
        help: "A top-level menu's id; default: the menu moved in last.",
        completion: PathCompletion.paths(.menus))
    var menu: String?
    var protocolArguments: [String] { [move] + (menu.map { [$0] } ?? []) }

    func validate() throws {
        guard NavMove(rawValue: move) != nil else {
            throw ValidationError(
                "unknown move '\(move)'; moves: " + NavMove.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }
}
