import MenuCore
import MenuProtocol

/// A command as an in-process caller (the tray) makes it: the node it acts on by
/// its number, in the model's numbering when it calls, and typed arguments; no
/// protocol words, no path. Each case runs the same handler as the socket's request
/// of its ``name`` (``CommandCaller``).
enum MenuCall: Equatable {
    /// An item's `exec` runs, a toggle flips, an option is picked.
    case activate(node: Int)
    /// A value node takes `value`, by the node's rule.
    case set(node: Int, value: String)
    /// A range node moves by `delta` (`+N`, `-N`), or with nil one step up.
    case step(node: Int, delta: String?)
    case expand(node: Int)
    case collapse(node: Int)
    /// A `children-cmd` group's command runs again, whether the group is open or not.
    case refresh(node: Int)
    /// Moves the focus cursor of the top-level menu `menu`.
    case nav(NavMove, menu: String)

    /// The command it runs.
    var name: CommandName {
        switch self {
        case .activate: .activate
        case .set: .set
        case .step: .step
        case .expand: .expand
        case .collapse: .collapse
        case .refresh: .refresh
        case .nav: .nav
        }
    }

    /// The node it acts on, which stands for the command's first argument.
    var node: Int? {
        switch self {
        case .activate(let n), .set(let n, _), .step(let n, _), .expand(let n), .collapse(let n),
            .refresh(let n):
            n
        case .nav: nil
        }
    }

    /// The command's arguments, each taken as it is (one that begins with `--` is
    /// no flag); the node's place is an empty string (``Arguments/init(values:)``).
    var arguments: [String] {
        switch self {
        case .activate, .expand, .collapse, .refresh: [""]
        case .set(_, let value): ["", value]
        case .step(_, let delta): [""] + (delta.map { [$0] } ?? [])
        case .nav(let move, let menu): [move.rawValue, menu]
        }
    }
}
