import MenuCore

/// A node's number that stays current while the model renumbers its nodes: what a
/// run started for a node (a `children-cmd`, a `value-cmd`, an `on-change`) or a
/// timer holds, to find its node again when it ends. Nil once the node is gone.
/// Made and renumbered by ``NodeRefs``.
final class NodeRef {
    fileprivate(set) var node: Int?

    fileprivate init(_ node: Int) { self.node = node }
}

/// The ``NodeRef``s still held, kept current by ``renumber(_:)``. Held weakly: a ref
/// lives as long as the run or timer that holds it.
final class NodeRefs {
    private struct Held {
        weak var ref: NodeRef?
    }

    private var held: [Held] = []
    /// When ``held`` is compacted next: at twice the refs alive at the last compaction.
    private var compactAt = 64

    /// A ref to node `n`.
    func ref(_ n: Int) -> NodeRef {
        let ref = NodeRef(n)
        if held.count >= compactAt {
            held.removeAll { $0.ref == nil }
            compactAt = max(64, 2 * held.count)
        }
        held.append(Held(ref: ref))
        return ref
    }

    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        held.removeAll { $0.ref == nil }
        for entry in held {
            guard let ref = entry.ref, let n = ref.node else { continue }
            ref.node = number(n)
        }
    }
}
