import Logging
import MenuCore

/// The state file's entries that the menu being served has no node for (docs/config.md,
/// "State"): kept and written back unchanged, so that a run serving another menu
/// loses nothing of the user's own.
extension DaemonState {
    /// Applies the state file's `entries` to the model at start.
    func restoreState(_ entries: [StateEntry]) {
        let (_, dropped) = model.importState(entries)
        keep(dropped, when: "state")
    }

    /// Takes what applying state to the current model dropped: entries for nodes it
    /// lacks are kept, the rest (a node that no longer takes the value) are gone.
    /// Logged as one line per kind, however many: a state file may be large.
    func keep(_ dropped: [DroppedState], when: String) {
        var missing: [StateEntry] = []
        var refused: [DroppedState] = []
        for d in dropped {
            if model.tree.node(at: d.entry.path) == nil {
                missing.append(d.entry)
            } else {
                refused.append(d)
            }
        }
        let previously = Set(keptState.map(\.path))
        let newlyKept = missing.filter { !previously.contains($0.path) }.count
        keptState = missing
        if newlyKept > 0 {
            logger.notice(
                "\(when): kept \(newlyKept) entries for nodes this menu lacks, such as \(LogText.cut(missing[0].description)); they apply again once the menu has their nodes"
            )
        }
        if let first = refused.first {
            logger.notice(
                "\(when): dropped \(refused.count) entries, such as \(LogText.cut(first.entry.description)): \(first.reason)"
            )
        }
    }
}
