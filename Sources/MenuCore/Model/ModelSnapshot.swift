/// A model's tree and state at one ``MenuModel/revision``, to be read on another
/// thread: its parts are values, so taking one copies nothing, and the model's next
/// change copies only what it changes.
public struct ModelSnapshot: Sendable {
    public let tree: MenuTree
    let expanded: [Bool]
    let values: [Int: Value]
    public let revision: Int
    let search: SearchIndex
}

extension ModelCore {
    func snapshot() -> ModelSnapshot {
        ModelSnapshot(tree: tree, expanded: expanded, values: values, revision: revision, search: search)
    }
}

extension ModelSnapshot {
    /// Every expansion flag and value that differs from the config's initial state,
    /// in tree order. Untouched nodes follow the config, so a changed default in the
    /// config takes effect for them. An open question is not kept: a restart is no
    /// time to ask it again. Taken from a snapshot so that the daemon can do it off
    /// its loop: on a menu of a million nodes it takes tens of milliseconds.
    public func exportState() -> [StateEntry] {
        var out: [StateEntry] = []
        for i in 0..<tree.count {
            if tree.kinds[i].isExpandable, expanded[i] != tree.initiallyExpanded[i], !tree.isConfirmation(i) {
                out.append(StateEntry(path: tree.path(i), field: .expanded(expanded[i])))
            }
            if let v = values[i], v != tree.initialValues[i] {
                out.append(StateEntry(path: tree.path(i), field: .value(v.description)))
            }
        }
        return out
    }
}
