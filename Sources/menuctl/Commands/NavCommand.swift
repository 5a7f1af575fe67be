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
            elsewhere nothing). `nav key KEY [MENU]` activates the focused group's child whose \
            access key is KEY (one letter or digit). Meant for a bar's scroll wheel and for key bindings.
            """)
    static let protocolName = CommandName.nav
    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp("The move, or key.", valueName: "move"),
        completion: .list(NavMove.allCases.map(\.rawValue) + ["key"]))
    var move: String
    @Argument(
        help: ArgumentHelp(
            "After key, the KEY; then a top-level menu's id (default: the menu moved in last).",
            valueName: "key-or-menu"),
        completion: PathCompletion.paths(.menus))
    var words: [String] = []
    var protocolArguments: [String] { [move] + words }

    func validate() throws {
        if move == "key" {
            guard let key = words.first else {
                throw ValidationError("nav key needs a KEY: one letter or digit")
            }
            guard MenuTree.keyByte(ofText: key) != nil else {
                throw ValidationError("'\(key)' is not a key: a KEY is one letter or digit (a-z, 0-9)")
            }
            guard words.count <= 2 else { throw ValidationError("nav key takes a KEY and one MENU at most") }
            return
        }
        guard NavMove(rawValue: move) != nil else {
            throw ValidationError(
                "unknown move '\(move)'; moves: " + NavMove.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", or key KEY")
        }
        guard words.count <= 1 else { throw ValidationError("nav \(move) takes one MENU at most") }
    }
}
