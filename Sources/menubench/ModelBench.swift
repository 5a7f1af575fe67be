import MenuCore

/// Section 2: the model's row operations on a large tree, against ``NaiveRows``.
struct ModelBench {
    let model: MenuModel

    func run() -> [BenchResult] {
        let section = "model"
        _ = try? model.expandAll()
        var naive = NaiveRows(model)
        let tree = model.tree
        // The top-level group with the most descendants.
        let group = tree.topLevel.max { tree.size($0) < tree.size($1) }!
        let path = tree.path(group)
        let rows = model.rowCount
        var out: [BenchResult] = []
        let nodes = "\(tree.count) nodes, \(rows) rows visible"

        // Check both give the same answers before timing either.
        for k in 0..<50 {
            let r = (k * 7919) % rows
            precondition(model.node(atRow: r) == naive.node(atRow: r), "naive and model disagree on row \(r)")
            let n = (k * 104_729) % tree.count
            precondition(model.rowIndex(of: n) == naive.row(of: n), "naive and model disagree on node \(n)")
        }

        let fastToggle = Stopwatch.nanosPerCall(perRound: 2000) { _ in
            _ = try? model.toggle(node: model.node(path))
        }
        let slowToggle = Stopwatch.nanosPerCall(rounds: 3, perRound: 20) { _ in _ = naive.toggle(group) }
        out.append(
            compare(
                section, "toggle a group of \(tree.size(group) - 1) descendants (\(nodes))", fastToggle,
                slowToggle))

        let fastRow = Stopwatch.nanosPerCall(perRound: 20000) { k in _ = model.node(atRow: (k &* 7919) % rows)
        }
        let slowRow = Stopwatch.nanosPerCall(rounds: 3, perRound: 10) { k in
            _ = naive.node(atRow: (k &* 7919) % rows)
        }
        out.append(compare(section, "row N → node", fastRow, slowRow))

        let fastNode = Stopwatch.nanosPerCall(perRound: 20000) { k in
            _ = model.rowIndex(of: (k &* 104_729) % tree.count)
        }
        let slowNode = Stopwatch.nanosPerCall(rounds: 3, perRound: 10) { k in
            _ = naive.row(of: (k &* 104_729) % tree.count)
        }
        out.append(compare(section, "node → row", fastNode, slowNode))

        let fastWindow = Stopwatch.nanosPerCall(perRound: 2000) { k in
            let mid = (k &* 7919) % rows
            _ = model.rows(in: max(0, mid - 25)..<(mid + 25))
        }
        let slowWindow = Stopwatch.nanosPerCall(rounds: 3, perRound: 10) { k in
            let mid = (k &* 7919) % rows
            _ = naive.window(from: max(0, mid - 25), count: 50)
        }
        // No target: most of this is building the 50 rows' text, the same work on both
        // sides, which the naive side is spared here (it only finds the nodes).
        var window = compare(section, "render 50 rows around row N", fastWindow, slowWindow)
        window.target = ""
        window.met = nil
        out.append(window)
        return out
    }

    private func compare(_ section: String, _ name: String, _ fast: Double, _ slow: Double) -> BenchResult {
        let ratio = slow / fast
        return BenchResult(
            section: section, name: name, value: BenchResult.micros(fast),
            comparison:
                "naive \(BenchResult.micros(slow)) (\(BenchResult.rounded(ratio, places: 0))× faster)",
            target: "≤ 5 µs, ≥ 100× naive", met: fast <= 5000 && ratio >= 100)
    }
}
