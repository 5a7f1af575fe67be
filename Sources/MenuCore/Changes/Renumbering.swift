/// How a model's node numbers moved, for what keeps nodes by number (the daemon's
/// parts, the focus cursors): a splice of groups' children (its ``Change/nodeSplices``) or a reload's
/// new model. A node the new numbering has no place for is nil: its slot was
/// replaced, or the new model has no node at its path. A node in replaced slots that
/// the new tree has again at the same path is carried there: a `children-cmd` group
/// inside a group whose children came anew is the same group.
public struct Renumbering {
    private let moves: [Splice]
    private let carried: [Int: Int]
    private let lookUp: ((Int) -> Int?)?

    /// After a splice: `moves` are its node splices, and `carried` the nodes of the
    /// slots it replaced with their numbers in the new tree.
    public init(moves: [Splice], carried: [Int: Int]) {
        self.moves = moves
        self.carried = carried
        lookUp = nil
    }

    /// From `old`'s numbering to `new`'s, by path: a reload's.
    public init(from old: MenuModel, to new: MenuModel) {
        moves = []
        carried = [:]
        lookUp = { new.node(samePathAs: $0, in: old) }
    }

    /// Whether no number moved: a splice that renumbered nothing.
    public var isIdentity: Bool { lookUp == nil && moves.isEmpty }

    public func callAsFunction(_ n: Int) -> Int? {
        if let lookUp { return lookUp(n) }
        if let c = carried[n] { return c }
        return Change.number(n, after: moves)
    }
}

extension Dictionary where Key == Int {
    /// This table with its nodes renumbered by `number`; those with no number now
    /// are left out.
    public func renumbered(_ number: Renumbering) -> [Int: Value] {
        guard !number.isIdentity else { return self }
        var out: [Int: Value] = [:]
        out.reserveCapacity(count)
        for (n, value) in self {
            if let m = number(n) { out[m] = value }
        }
        return out
    }
}

extension Array where Element == Int {
    /// These nodes renumbered by `number`, in their order; those with no number now
    /// are left out.
    public func renumbered(_ number: Renumbering) -> [Int] {
        number.isIdentity ? self : compactMap { number($0) }
    }
}
