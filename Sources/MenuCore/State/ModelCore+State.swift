/// Exporting and importing the user's state, for the daemon's state file and for
/// keeping state across a config reload.
extension ModelCore {
    /// Every expansion flag and value that differs from the config's initial state,
    /// in tree order (``ModelSnapshot/exportState()``).

    /// Applies `entries` as one change. Entries whose path no longer exists, that
    /// name a flag or value the node cannot have, or whose value the node's rule now
    /// refuses, are dropped and returned. Exclusive groups stay exclusive: where
    /// entries open two branches, the later one wins.
    @discardableResult
    mutating func importState(_ entries: [StateEntry]) -> (change: Change, dropped: [DroppedState]) {
        var dropped: [DroppedState] = []
        var opens: [Int] = []
        var closes: [Int] = []
        var sets: [(Int, Value)] = []
        for entry in entries {
            guard let n = tree.node(at: entry.path) else {
                dropped.append(DroppedState(entry: entry, reason: "no such node"))
                continue
            }
            switch entry.field {
            case .expanded(let open):
                guard tree.kinds[n].isExpandable else {
                    dropped.append(DroppedState(entry: entry, reason: "not expandable"))
                    continue
                }
                if open { opens.append(n) } else { closes.append(n) }
            case .value(let text):
                guard let rule = tree.rules[n] else {
                    dropped.append(DroppedState(entry: entry, reason: "holds no value"))
                    continue
                }
                switch rule.parse(text) {
                case .success(let v): sets.append((n, v))
                case .failure(let e): dropped.append(DroppedState(entry: entry, reason: e.message))
                }
            }
        }
        let change =
            (try? mutate { (m: inout ModelCore) throws(MenuError) in
                for n in closes { m.setExpanded(n, false) }
                for n in opens { m.open(n) }
                for (n, v) in sets { m.setValue(n, v) }
            }) ?? Change()
        return (change, dropped)
    }
}
