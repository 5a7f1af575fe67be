/// Generates menus of a given size, as YAML text (for the load benchmark) and as
/// node specs (for the model benchmark), with the same shape either way: groups of
/// `fanout` children down to leaves, with a value node in every leaf group.
struct MenuGenerator {
    var nodes: Int
    var fanout = 10

    /// The YAML of a menu with about `nodes` nodes.
    func yaml() -> String {
        var out = "menu:\n"
        out.reserveCapacity(nodes * 48)
        var made = 0
        var serial = 0
        func emit(depth: Int, budget: Int) {
            let pad = String(repeating: "  ", count: depth)
            if budget <= fanout {
                for k in 0..<budget {
                    serial += 1
                    made += 1
                    if k == 0 {
                        out +=
                            "\(pad)- id: v\(serial)\n\(pad)  title: Level {value}\n\(pad)  type: range\n\(pad)  value: 5\n"
                    } else {
                        out +=
                            "\(pad)- id: i\(serial)\n\(pad)  title: Item \(serial)\n\(pad)  exec: echo \(serial)\n"
                    }
                }
                return
            }
            let share = (budget - fanout) / fanout
            var left = budget
            for k in 0..<fanout where left > 0 {
                serial += 1
                made += 1
                let sub = k == fanout - 1 ? left - 1 : min(share, left - 1)
                out += "\(pad)- id: g\(serial)\n\(pad)  title: Group \(serial)\n\(pad)  children:\n"
                if sub > 0 {
                    emit(depth: depth + 2, budget: sub)
                } else {
                    out += "\(pad)    []\n"
                }
                left -= sub + 1
            }
        }
        emit(depth: 1, budget: nodes)
        return out
    }
}
