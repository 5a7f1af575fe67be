import ArgumentParser
import Foundation
import MenuApplications
import MenuConfigLoading
import MenuCore
import MenuLoop

/// menud's benchmark suite: each section measures menud next to a baseline in the
/// same run, so the ratios hold whatever machine runs it.
struct Menubench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Measure menud's load, model, socket, client, fan-out, reload, live-value, applications, search, icon and fault costs.",
        subcommands: [
            Run.self, RawParseCommand.self, LoadCommand.self, GenerateCommand.self, DriveCommand.self,
            LoopFloorCommand.self, BareFloorCommand.self, HotPathCommand.self, FindQueriesCommand.self,
            SendCommand.self, PingsCommand.self,
            ScanCommand.self,
        ],
        defaultSubcommand: Run.self)
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the suite.")

    @Option(
        help: ArgumentHelp(
            "Comma-separated sections: \(BenchSection.names.joined(separator: ", "))."
        ))
    var sections = BenchSection.defaultNames.joined(separator: ",")

    @Option(help: "Seconds each socket load runs, at most.")
    var seconds = 3.0

    @Option(help: "Requests each socket load sends, at most.")
    var requests = 1_000_000

    @Option(help: "Rounds of the socket loads; each server keeps its best round at each load.")
    var rounds = 1

    @Flag(help: "Smaller menus, for a quick look; not for BENCHMARKS.md.")
    var quick = false

    @Option(help: "Minutes the faults section polls beyond what can be run (default 10, 1 with --quick).")
    var pollMinutes: Int?

    @Option(help: "Write the table into this file between menubench markers.")
    var write: String?

    func run() throws {
        let wanted = Set(sections.split(separator: ",").map(String.init))
        let openFiles = OpenFileLimit.raise()
        let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("menubench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let unknown = wanted.subtracting(BenchSection.names)
        guard unknown.isEmpty else {
            throw ValidationError(
                "no section named \(unknown.sorted().joined(separator: ", ")); the sections are "
                    + BenchSection.names.joined(separator: ", "))
        }
        let context = BenchContext(
            binDir: binDir, workDir: work, quick: quick, seconds: seconds, requests: requests, rounds: rounds,
            pollMinutes: pollMinutes, openFiles: openFiles, wanted: wanted)
        var results: [BenchResult] = []
        var tables: [String] = []
        for section in BenchSection.all where section.isWanted(by: wanted) {
            let output = try section.run(context)
            results += output.results
            tables += output.tables
        }
        let report = BenchReport(results: results, tables: tables)
        print("menubench on \(BenchReport.machine)\n")
        print(report.table)
        if let write {
            try report.write(
                to: write, command: "menubench " + CommandLine.arguments.dropFirst().joined(separator: " "))
        }
    }
}

struct RawParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw-parse", abstract: "Pull every libyaml event from FILE and build nothing.")

    @Argument(help: "A YAML file.")
    var file: String

    func run() throws {
        guard let n = RawParse.events(inFile: file) else { throw ExitCode(1) }
        print(n)
    }
}

struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load", abstract: "Load FILE with menud's loader and build its model, for profiling.")

    @Argument(help: "A menu config.")
    var file: String

    @Flag(help: "Stop after loading, as `menud --check` does.")
    var checkOnly = false

    func run() throws {
        switch ConfigLoader.load(path: file) {
        case .success(let config): print(checkOnly ? config.nodeCount : MenuModel(config: config).nodeCount)
        case .failure(let errors):
            print(errors)
            throw ExitCode(1)
        }
    }
}

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Print the generated menu of about N nodes that the suite loads.")

    @Argument(help: "How many nodes.")
    var nodes: Int

    func run() throws {
        print(MenuGenerator(nodes: nodes).yaml(), terminator: "")
    }
}

struct DriveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drive", abstract: "Load a running menud with get/toggle requests, for profiling it.")

    @Option(help: "The daemon's socket.")
    var socket: String

    @Option(help: "Connections.")
    var connections = 50

    @Option(help: "Requests in flight on each connection.")
    var pipeline = 16

    @Option(help: "How long to run.")
    var seconds = 3.0

    @Option(help: "Requests to send, at most.")
    var requests = Int.max

    @Option(help: "The server's protocol: menud (also the floors), mpd or redis.")
    var dialect = ReplyFraming.Dialect.menud

    @Option(
        name: .customLong("request"),
        help:
            "A request line, sent in turn with the others (default: get/toggle to menud, ping to mpd, PING to redis)."
    )
    var lines: [String] = []

    func run() throws {
        let terminator = dialect == .redis ? "\r\n" : "\n"
        let defaults =
            switch dialect {
            case .menud: SocketLoad.menudRequests
            case .mpd: SocketLoad.mpdRequests
            case .redis: SocketLoad.redisRequests
            }
        guard
            let r = SocketLoad(
                socketPath: socket, dialect: dialect, connections: connections, pipeline: pipeline,
                requests: lines.isEmpty ? defaults : lines.map { Array(($0 + terminator).utf8) },
                seconds: seconds, maxRequests: requests
            ).run()
        else { throw ExitCode(1) }
        print(r.summary)
    }
}

extension ReplyFraming.Dialect: ExpressibleByArgument {}

Menubench.main()

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read the applications of DIR/applications into the menu ROUNDS times, for profiling.")

    @Argument(help: "A data directory, as XDG_DATA_HOME.")
    var directory: String

    @Option(help: "How many times.")
    var rounds = 100

    func run() throws {
        let environment = ApplicationEnvironment(environment: [
            "XDG_DATA_HOME": directory, "XDG_DATA_DIRS": directory + "/none", "LANG": "de_DE.UTF-8",
        ])
        var times: [Double] = []
        // Each round's menu is kept until the end, so that freeing one is not timed.
        var kept: [ApplicationMenu] = []
        for _ in 0..<rounds {
            times.append(
                Stopwatch.once { kept.append(ApplicationMenu(ApplicationScan(environment).entries)) }
            )
        }
        times.sort()
        print(
            "\(kept.last?.entries.count ?? 0) entries: best \(BenchResult.micros(times[0])), median \(BenchResult.micros(times[times.count / 2]))"
        )
    }
}
