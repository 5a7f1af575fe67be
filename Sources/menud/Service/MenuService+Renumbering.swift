import MenuCore

/// The parts keep nodes by number (loaded children, loads, refreshes, value
/// sources, hooks, the focus cursors, the refs of runs under way), and renumber them together when the
/// model's nodes move: after a splice of groups' children, and after a reload.
extension MenuService {
    /// The followed nodes of `range` with their paths, spelled before a splice
    /// replaces their slots, so that those the new children have again are carried
    /// over (``Renumbering``).
    func followedPaths(in range: Range<Int>) -> [(node: Int, path: String)] {
        let focused = focus.nodes.filter { range.contains($0) }
        return Set(model.followedNodes(in: range) + focused).sorted().map {
            (node: $0, path: model.path(of: $0))
        }
    }

    /// Renumbers the parts after `change`, a splice, made: the nodes of `carrying`
    /// (``followedPaths(in:)``, before it) go where the new tree has their paths.
    func renumber(after change: Change, carrying paths: [(node: Int, path: String)]) {
        guard !change.nodeSplices.isEmpty else { return }
        var carried: [Int: Int] = [:]
        for (n, path) in paths {
            if let m = model.tree.node(at: path) { carried[n] = m }
        }
        renumber(Renumbering(moves: change.nodeSplices, carried: carried))
    }

    /// Renumbers every part that keeps nodes.
    func renumber(_ number: Renumbering) {
        menu.renumber(number)
        children.renumber(number)
        liveValues.renumber(number)
        focus.renumber(number)
    }
}
