import MenuConfigLoading
import MenuCore

/// Section 2, continued: opening a `children-cmd` group whose command prints two
/// children, as menud does it (run the command, read its output as nodes, put them
/// into the model, open the group), against the command alone and against the model
/// rebuilt from the filled config as menud did before it spliced.
struct ChildrenLoadBench {
    var sizes: [Int]

    /// The group's command, run as menud runs one: `sh -c`, its output read from a pipe.
    static let command = "printf -- '- title: Home\\n  exec: nm home\\n- title: Cafe\\n  exec: nm cafe\\n'"

    func run() -> [BenchResult] {
        sizes.flatMap { nodes in
            // Where the group stands among the top-level menus: a splice that moved the
            // nodes after it would cost most first and least last.
            ["first", "middle", "last"].map { run(nodes: nodes, place: $0) }
        }
    }

    private func run(nodes: Int, place: String) -> BenchResult {
        let group = "  - id: net\n    title: Networks\n    children-cmd: list-networks\n"
        var text = MenuGenerator(nodes: nodes).yaml()
        switch place {
        case "first":
            text.insert(contentsOf: group, at: text.index(text.startIndex, offsetBy: "menu:\n".count))
        case "middle":
            // Before the first top-level menu in the second half of the text.
            let half = text.index(text.startIndex, offsetBy: text.utf8.count / 2)
            let next = text[half...].range(of: "\n  - ")!.lowerBound
            text.insert(contentsOf: group, at: text.index(after: next))
        default:
            text += group
        }
        let config = try! ConfigLoader.load(text: text, file: "generated").get()
        let loading = { (_: String) in [NodeSpec.loadingRow] }
        var model = MenuModel(config: config.fillingChildren(loading))
        let argv = ["/bin/sh", "-c", Self.command]
        let rounds = nodes >= 1_000_000 ? 9 : 15

        func children() -> [NodeSpec] {
            try! ConfigLoader.loadNodes(bytes: ChildProcess.output(of: argv), file: "net").get()
        }
        precondition(children().map(\.id) == ["home", "cafe"], "the command printed something else")

        var commandTimes: [Double] = []
        var openTimes: [Double] = []
        var spliceTimes: [Double] = []
        for _ in 0..<rounds {
            commandTimes.append(Stopwatch.once { _ = ChildProcess.output(of: argv) })
            var spliced: Double = 0
            openTimes.append(
                Stopwatch.once {
                    let loaded = children()
                    spliced = Stopwatch.once {
                        _ = model.replaceChildren(of: try! model.node("net"), with: loaded, filling: loading)
                        _ = try! model.expand(node: model.node("net"))
                    }
                })
            spliceTimes.append(spliced)
            precondition(
                model.rows(under: model.tree.node(at: "net")).map(\.path) == ["net", "net/home", "net/cafe"])
            // Closed and forgotten again, as menud leaves a group that is closed.
            _ = try! model.collapse(node: model.node("net"))
            _ = model.replaceChildren(of: try! model.node("net"), with: [.loadingRow], filling: loading)
        }

        // Before: the whole model built again from the config with the output filled in.
        let loaded = children()
        var rebuildTimes: [Double] = []
        for _ in 0..<(nodes >= 1_000_000 ? 3 : 5) {
            rebuildTimes.append(
                Stopwatch.once {
                    let filled = config.fillingChildren { $0 == "net" ? loaded : [.loadingRow] }
                    let next = MenuModel(config: filled)
                    _ = model.carryState(into: next)
                    _ = try! next.expand(node: next.node("net"))
                    model = next
                })
            _ = try! model.collapse(node: model.node("net"))
            model = MenuModel(config: config.fillingChildren(loading))
        }

        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        let command = median(commandTimes)
        let open = median(openTimes)
        let ratio = open / command
        return BenchResult(
            section: "model",
            name: "open a children-cmd group printing 2 children, \(place) of \(nodes) nodes",
            value: BenchResult.micros(open),
            comparison:
                "command alone \(BenchResult.micros(command)), ratio \(BenchResult.rounded(ratio))×; "
                + "splice and open \(BenchResult.micros(median(spliceTimes))); "
                + "rebuild (before) \(BenchResult.micros(median(rebuildTimes)))",
            target: nodes >= 1_000_000 ? "≤ 2× the command" : "",
            met: nodes >= 1_000_000 ? ratio <= 2 : nil)
    }
}
