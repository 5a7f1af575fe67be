import ArgumentParser
import MenuCore

/// The find section's 100 queries on its generated menu, without fzf: for a
/// profiler, or to time two builds in turn on the same load.
struct FindQueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-queries",
        abstract: "Run the find section's queries ROUNDS times on a menu of NODES.")

    @Argument(help: "How many nodes.")
    var nodes: Int

    @Argument(help: "How many times the 100 queries run.")
    var rounds: Int

    @Option(help: "Run this query instead of the section's (repeatable).")
    var query: [String] = []

    @Flag(help: "Also print each query's best time, slowest first.")
    var each = false

    func run() throws {
        let model = MenuModel(config: MenuConfig(file: "bench", menus: FindBench.menu(nodes: nodes).specs))
        let clock = ContinuousClock()
        let start = clock.now
        var answers = 0
        let queries = query.isEmpty ? FindBench.queries : query
        var best = [Duration](repeating: .seconds(1_000), count: queries.count)
        for _ in 0..<rounds {
            for (k, query) in queries.enumerated() {
                let began = clock.now
                answers += try model.find(query, limit: 20).count
                best[k] = min(best[k], clock.now - began)
            }
        }
        print(answers, clock.now - start)
        guard each else { return }
        for k in best.indices.sorted(by: { best[$0] > best[$1] }) {
            print(best[k], queries[k], separator: "\t")
        }
    }
}
