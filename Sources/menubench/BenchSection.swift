import Foundation
import MenuConfigLoading
import MenuCore

/// What a section of `menubench run` is given: the run's options, and where the
/// binaries and the scratch files are.
struct BenchContext {
    let binDir: String
    let workDir: String
    let quick: Bool
    let seconds: Double
    let requests: Int
    let rounds: Int
    let pollMinutes: Int?
    let openFiles: Int
    /// The section names asked for, for a section that serves several.
    let wanted: Set<String>
}

/// What a section measured: rows of the results table, and tables of its own.
struct BenchOutput {
    var results: [BenchResult] = []
    var tables: [String] = []
}

/// One section of `menubench run`: the names that select it, whether a run without
/// `--sections` takes it, and what it measures. ``all`` is the one list of them: the
/// option's help and default, and the order they run in, come from it.
struct BenchSection: Sendable {
    let names: [String]
    let byDefault: Bool
    let run: @Sendable (BenchContext) throws -> BenchOutput

    static let all: [BenchSection] = [
        BenchSection(names: ["load"], byDefault: true) { c in
            let sizes = c.quick ? [1, 10_000, 100_000] : [1, 10_000, 100_000, 1_000_000]
            return BenchOutput(results: LoadBench(sizes: sizes, binDir: c.binDir, workDir: c.workDir).run())
        },
        BenchSection(names: ["model"], byDefault: true) { c in
            let text = MenuGenerator(nodes: c.quick ? 100_000 : 1_000_000).yaml()
            let config = try ConfigLoader.load(text: text, file: "generated").get()
            return BenchOutput(results: ModelBench(model: MenuModel(config: config)).run())
        },
        // Part of the model section, or alone.
        BenchSection(names: ["children", "model"], byDefault: false) { c in
            BenchOutput(results: ChildrenLoadBench(sizes: c.quick ? [20_000] : [200_000, 1_000_000]).run())
        },
        BenchSection(names: ["socket", "client", "fanout"], byDefault: true) { c in
            let socket = SocketBench(
                binDir: c.binDir, workDir: c.workDir, seconds: c.quick ? 1 : c.seconds,
                requests: c.quick ? 200_000 : c.requests, rounds: c.rounds, openFiles: c.openFiles
            ).run(sections: c.wanted)
            var output = BenchOutput(results: socket.results)
            if let matrix = socket.matrix {
                let rounds = "best of \(c.rounds) round\(c.rounds == 1 ? "" : "s")"
                output.tables.append(
                    "Socket loads, each server and request alone, \(rounds): req/s; p50 / p99 latency.\n\n"
                        + matrix.markdown)
            }
            return output
        },
        BenchSection(names: ["reload"], byDefault: true) { c in
            BenchOutput(
                results: ReloadBench(
                    nodes: c.quick ? 100_000 : 1_000_000, binDir: c.binDir, workDir: c.workDir
                )
                .run())
        },
        BenchSection(names: ["find"], byDefault: true) { c in
            let sizes = c.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
            return BenchOutput(results: FindBench(sizes: sizes, workDir: c.workDir).run())
        },
        BenchSection(names: ["live"], byDefault: true) { c in
            BenchOutput(results: LiveBench(binDir: c.binDir, workDir: c.workDir, quick: c.quick).run())
        },
        BenchSection(names: ["faults"], byDefault: true) { c in
            BenchOutput(
                results: FaultsBench(
                    binDir: c.binDir, workDir: c.workDir, quick: c.quick,
                    pollMinutes: c.pollMinutes ?? (c.quick ? 1 : 10)
                ).run())
        },
        BenchSection(names: ["applications"], byDefault: true) { c in
            BenchOutput(results: ApplicationsBench(entries: 2000, workDir: c.workDir).run())
        },
        BenchSection(names: ["icons"], byDefault: true) { _ in BenchOutput(results: IconsBench().run()) },
    ]

    /// Every name a section answers to, each once, in the order of ``all``.
    static var names: [String] {
        var seen: Set<String> = []
        return all.flatMap(\.names).filter { seen.insert($0).inserted }
    }

    /// The sections a run without `--sections` takes, by their first names.
    static var defaultNames: [String] {
        var seen: Set<String> = []
        return all.filter(\.byDefault).flatMap(\.names).filter { seen.insert($0).inserted }
    }

    /// Whether a run asking for `wanted` takes this section.
    func isWanted(by wanted: Set<String>) -> Bool { !wanted.isDisjoint(with: names) }
}
