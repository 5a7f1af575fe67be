/// Two changes made one after the other, told as one: for a reply that answers for
/// more than one step, such as a command and the loading of the `children-cmd`
/// groups it opened.
extension Change {
    /// `changes`, made one after the other, told as one.
    public init(composing changes: some Sequence<Change>) {
        self = changes.reduce(Change()) { $0.followed(by: $1) }
    }

    /// This change followed by `next`, as one change from the rows before this one
    /// to the rows after `next`. This change's nodes are carried through `next`'s
    /// renumbering (``nodeSplices``); those whose slots it replaced are left out.
    public func followed(by next: Change) -> Change {
        Change(
            splices: Splice.compose(splices, then: next.splices),
            expansionChanged: Self.merged(
                Self.moved(expansionChanged, by: next.nodeSplices), next.expansionChanged),
            valueChanged: Self.merged(Self.moved(valueChanged, by: next.nodeSplices), next.valueChanged),
            nodeSplices: nodeSplices + next.nodeSplices)
    }

    /// This change with its nodes renumbered by `number`, for a change carried into
    /// another tree (a reload's); nodes that have no number there are left out.
    public func renumbered(_ number: (Int) -> Int?) -> Change {
        Change(
            splices: splices, expansionChanged: expansionChanged.compactMap(number).sorted(),
            valueChanged: valueChanged.compactMap(number).sorted())
    }

    /// `nodes`, ascending, numbered after `moves`.
    private static func moved(_ nodes: [Int], by moves: [Splice]) -> [Int] {
        guard !moves.isEmpty else { return nodes }
        return nodes.compactMap { number($0, after: moves) }
    }

    /// Node `n`'s number after `moves` (a change's ``nodeSplices``, one after the
    /// other); nil when one of them replaced its slot.
    public static func number(_ n: Int, after moves: [Splice]) -> Int? {
        var n = n
        for move in moves {
            if n >= move.start + move.removed {
                n += move.inserted - move.removed
            } else if n >= move.start {
                return nil
            }
        }
        return n
    }

    /// Two ascending lists as one, each node once.
    private static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return Array(Set(a).union(b)).sorted()
    }
}

extension Splice {
    /// The splices that do what `first` then `second` do, in ``Change``'s form:
    /// ascending, each in the coordinates left by the ones before. Rows that
    /// `first` inserts and `second` removes cancel out.
    public static func compose(_ first: [Splice], then second: [Splice]) -> [Splice] {
        var a = EditScript(first)
        var b = EditScript(second)
        var out = EditScript.Builder()
        // `first` turns the old rows into the middle ones, which `second` reads: its
        // keeps and removals take the rows `first` keeps or inserts.
        while !(a.atEnd && b.atEnd) {
            if case .remove(let n) = a.current {
                out.remove(n)
                a.advance(by: n)
            } else if case .insert(let n) = b.current {
                out.insert(n)
                b.advance(by: n)
            } else {
                let n = min(a.current.count, b.current.count)
                switch (a.current, b.current) {
                case (.keep, .keep): out.keep(n)
                case (.keep, .remove): out.remove(n)
                case (.insert, .keep): out.insert(n)
                default: break  // inserted by `first`, removed by `second`
                }
                a.advance(by: n)
                b.advance(by: n)
            }
        }
        return out.result
    }
}

/// A splice list read as runs of kept, removed and inserted rows, ending in rows
/// kept for ever.
private struct EditScript {
    enum Step {
        case keep(Int)
        case remove(Int)
        case insert(Int)

        var count: Int {
            switch self {
            case .keep(let n), .remove(let n), .insert(let n): return n
            }
        }
    }

    private var steps: [Step] = []
    private var index = 0
    /// How much of ``steps``[index] has been read.
    private var used = 0

    init(_ splices: [Splice]) {
        var row = 0
        for s in splices {
            if s.start > row { steps.append(.keep(s.start - row)) }
            if s.removed > 0 { steps.append(.remove(s.removed)) }
            if s.inserted > 0 { steps.append(.insert(s.inserted)) }
            row = s.start + s.inserted
        }
    }

    var atEnd: Bool { index == steps.count }

    /// What is left of the step being read.
    var current: Step {
        guard index < steps.count else { return .keep(Int.max) }
        switch steps[index] {
        case .keep(let n): return .keep(n - used)
        case .remove(let n): return .remove(n - used)
        case .insert(let n): return .insert(n - used)
        }
    }

    mutating func advance(by n: Int) {
        guard index < steps.count else { return }
        used += n
        if used == steps[index].count {
            index += 1
            used = 0
        }
    }

    /// Gathers steps back into splices, each run of removals and insertions
    /// between kept rows into one.
    struct Builder {
        private var splices: [Splice] = []
        private var row = 0
        private var open: Splice?

        mutating func keep(_ n: Int) {
            close()
            row += n
        }

        mutating func remove(_ n: Int) {
            var s = open ?? Splice(start: row, removed: 0, inserted: 0)
            s.removed += n
            open = s
        }

        mutating func insert(_ n: Int) {
            var s = open ?? Splice(start: row, removed: 0, inserted: 0)
            s.inserted += n
            row += n
            open = s
        }

        private mutating func close() {
            if let s = open { splices.append(s) }
            open = nil
        }

        var result: [Splice] {
            var copy = self
            copy.close()
            return copy.splices
        }
    }
}
