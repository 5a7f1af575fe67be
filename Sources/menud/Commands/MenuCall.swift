import MenuCore
import MenuProtocol

/// A command as an in-process caller (the tray) makes it: typed arguments, no
/// protocol text. Each case runs the same handler as the socket's request of that
/// name (``CommandCaller``).
enum MenuCall: Equatable {
    /// An item's `exec` runs, a toggle flips, an option is picked.
    case activate(path: String)
    /// A value node takes `value`, by the node's rule.
    case set(path: String, value: String)
    /// A range node moves by `delta` (`+N`, `-N`), or with nil one step up.
    case step(path: String, delta: String?)
    case expand(path: String)
    case collapse(path: String)
    /// A `children-cmd` group's command runs again, whether the group is open or not.
    case refresh(path: String)
    /// Moves the focus cursor of the top-level menu `menu`.
    case nav(NavMove, menu: String)

    /// The command it runs, and its arguments: each one a word of its own, taken as
    /// it is (a word that begins with `--` is no flag).
    var words: (name: CommandName, arguments: [String]) {
        switch self {
        case .activate(let path): (.activate, [path])
        case .set(let path, let value): (.set, [path, value])
        case .step(let path, let delta): (.step, [path] + (delta.map { [$0] } ?? []))
        case .expand(let path): (.expand, [path])
        case .collapse(let path): (.collapse, [path])
        case .refresh(let path): (.refresh, [path])
        case .nav(let move, let menu): (.nav, [move.rawValue, menu])
        }
    }
}
