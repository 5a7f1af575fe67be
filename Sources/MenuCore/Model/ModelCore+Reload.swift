/// Moving to a new config without losing what the user did.
extension ModelCore {
    /// Carries this model's user state into `next`, a model of a newly loaded config:
    /// what the user changed is kept where the node still exists and the value is
    /// still valid; untouched nodes take the new config's defaults. Returns the splices
    /// from this model's rows to `next`'s, the changed nodes (numbered in `next`), and
    /// what was dropped.
    /// `kept` are state entries for nodes this model lacks: they apply where `next`
    /// has their nodes, before this model's own state.
    mutating func carryState(into next: inout ModelCore, with kept: [StateEntry] = []) -> (
        change: Change, dropped: [DroppedState]
    ) {
        let oldRows = rows().map(\.path)
        let (_, dropped) = next.importState(kept + snapshot().exportState())
        let newRows = next.rows().map(\.path)
        var expansion: [Int] = []
        var valued: [Int] = []
        for i in 0..<next.tree.count where !next.tree.isVacant(i) {
            let path = next.tree.path(i)
            let old = tree.node(at: path)
            let kind = next.tree.kinds[i]
            if kind.isExpandable, next.expanded[i] != (old.map { expanded[$0] } ?? false) {
                expansion.append(i)
            }
            if let v = next.values[i], v != old.flatMap({ values[$0] }) { valued.append(i) }
        }
        return (
            Change(
                splices: RowDiff.splices(from: oldRows, to: newRows), expansionChanged: expansion,
                valueChanged: valued),
            dropped
        )
    }
}
