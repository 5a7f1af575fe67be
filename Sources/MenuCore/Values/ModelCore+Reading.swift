/// Values read from the system (``ValueSource``): not a user's change, so no batch
/// or undo takes part, and the daemon runs no `on-change` for them.
extension ModelCore {
    /// Applies `line`, read from node `n`'s source, through the node's rule
    /// (``ValueRule/reading(_:options:)``). A reading the rule refuses keeps the last
    /// value and marks the node stale; one it takes clears the mark. The change names
    /// the node when its value or its mark changed, and nothing otherwise.
    mutating func read(_ line: String, into n: Int) throws(MenuError) -> (Change, ReadingOutcome) {
        precondition(!journaling, "a reading is not part of a command or batch")
        guard let rule = tree.rules[n] else { throw .notAValue(path(of: n)) }
        switch rule.reading(line, options: options(of: n)) {
        case .failure(let error):
            return (markStale([n]), .refused(error))
        case .success(let reading):
            let wasStale = stale.removeValue(forKey: n) != nil
            var change = try mutate { (m: inout ModelCore) throws(MenuError) in m.setValue(n, reading.value) }
            if wasStale && change.valueChanged.isEmpty {
                rowChanged(n)
                change.valueChanged = [n]
            }
            return (change, reading.clampedFrom.map(ReadingOutcome.clamped(from:)) ?? .applied)
        }
    }

    /// A choice's options, in order, with their titles: what names one besides its id
    /// (``ValueRule/option(named:ids:options:)``). Empty for any other node.
    func options(of n: Int) -> [(id: String, title: String)] {
        tree.kinds[n] == .choice ? tree.children(n).map { (id: tree.ids[$0], title: title(of: $0)) } : []
    }

    /// Marks `nodes` stale, with `reason` when there is one (a node stale already
    /// keeps its last reason otherwise); the change names those that were not stale
    /// already. A new reason alone changes only the node's row, which `get` shows:
    /// no value record carries it.
    mutating func markStale(_ nodes: [Int], reason: StaleReason? = nil) -> Change {
        var marked: [Int] = []
        for n in nodes {
            guard let old = stale[n] else {
                stale[n] = .some(reason)
                rowChanged(n)
                marked.append(n)
                continue
            }
            if let reason, old != reason {
                stale[n] = .some(reason)
                rowChanged(n)
            }
        }
        if !marked.isEmpty { revision &+= 1 }
        return Change(valueChanged: marked.sorted())
    }

    /// Why node `n` is stale, when it is and the daemon said why.
    func staleReason(_ n: Int) -> StaleReason? { stale.isEmpty ? nil : stale[n] ?? nil }

    /// Asked for every value a change reports: most menus have no stale node, and
    /// hashing the number would cost more than writing the record.
    @inline(__always) func isStale(_ n: Int) -> Bool { !stale.isEmpty && stale[n] != nil }
}

/// What a reading did besides its change.
public enum ReadingOutcome: Sendable, Equatable {
    case applied
    /// A range's number outside the bounds, shown clamped.
    case clamped(from: Double)
    /// The rule refused it: the node keeps its last value and is stale.
    case refused(ValueError)
}
