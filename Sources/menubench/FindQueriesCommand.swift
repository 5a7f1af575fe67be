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

    func run() throws {
        let model = MenuModel(config: MenuConfig(file: "bench", menus: FindBench.menu(nodes: nodes).specs))
        let clock = ContinuousClock()
        let start = clock.now
        var answers = 0
        for _ in 0..<rounds {
            for query in FindBench.queries { answers += try model.find(query, limit: 20).count }
        }
        print(answers, clock.now - start)
    }
}
