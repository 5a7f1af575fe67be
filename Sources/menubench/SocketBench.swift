import Foundation
import MenuConfigLoading
import MenuCore

/// Sections 3 to 5: socket throughput and latency, fan-out, and one-shot client
/// start. menud's peers run beside it in the same run, driven by the same generator:
/// mpd, the per-user daemon with a line protocol that menud is most like, and redis,
/// the usual fastest small daemon; the floors answer `OK` to every line and so show
/// what a server on menud's loop layer, and one on a bare poll loop, cannot go below.
struct SocketBench {
    var binDir: String
    var workDir: String
    var seconds: Double
    /// Requests sent to each server at each load, at most.
    var requests: Int
    /// Times each server is driven at each load; the best round is kept.
    var rounds: Int
    /// The soft open-file limit, raised before any server starts so that they inherit it.
    var openFiles: Int

    /// The loads every server is driven at. The ratios against the peers are taken at
    /// c=50; c=1 prices one client alone, c=1000 a crowd of idle-ish clients.
    static let loads = [(1, 1), (50, 1), (50, 16), (1000, 1)].map {
        SocketMatrix.Load(connections: $0.0, pipeline: $0.1)
    }
    static let ratioLoads = loads.filter { $0.connections == 50 }

    /// The targets: each menud request against the peer's request that
    /// does the same kind of work.
    static let ratios = [
        ("menud `ping`", "mpd `ping`", "floor against floor"),
        ("menud `get display/volume`", "mpd `status`", "each reading its state"),
        ("menud `toggle power`", "redis `SET menubench 1`", "a write"),
    ]

    struct Report {
        var results: [BenchResult] = []
        var matrix: SocketMatrix?
    }

    func run(sections: Set<String>) -> Report {
        let config = "\(workDir)/menu.yaml"
        try? Data(BuiltinMenu.yaml.utf8).write(to: URL(fileURLWithPath: config))
        let menudSocket = "\(workDir)/menud.sock"
        let redisSocket = "\(workDir)/redis.sock"
        let floorSocket = "\(workDir)/floor.sock"
        let bareSocket = "\(workDir)/bare.sock"
        var servers: [(name: String, pid: pid_t, socket: String)] = []
        defer { for server in servers { ChildProcess.stop(server.pid) } }
        var missing: [String: String] = [:]
        for (name, argv, socket) in [
            (
                "menud", ["\(binDir)/menud", "--config", config, "--socket", menudSocket, "--no-state"],
                menudSocket
            ),
            (
                "redis",
                [
                    "redis-server", "--port", "0", "--unixsocket", redisSocket, "--save", "", "--appendonly",
                    "no",
                ], redisSocket
            ),
            ("loop floor", ["\(binDir)/menubench", "loop-floor", "--socket", floorSocket], floorSocket),
            ("bare floor", ["\(binDir)/menubench", "bare-floor", "--socket", bareSocket], bareSocket),
        ] {
            if let pid = ChildProcess.start(argv) {
                servers.append((name, pid, socket))
            } else {
                missing[name] = "could not start `\(argv[0])`"
            }
        }
        let mpd = MPDServer.start(in: "\(workDir)/mpd")
        defer { mpd?.stop() }
        if mpd == nil { missing["mpd"] = "could not start `mpd` (Debian `mpd`)" }
        for server in servers where !SocketBench.waitForSocket(server.socket) {
            missing[server.name] = "did not come up"
        }
        if let mpd, !SocketBench.waitForSocket(mpd.socket) { missing["mpd"] = "did not come up" }
        if let why = missing["menud"] {
            return Report(results: [BenchResult(section: "socket", name: "menud", value: why)])
        }

        var report = Report()
        if sections.contains("socket") {
            report = driveAll(
                menud: menudSocket, mpd: mpd?.socket, redis: redisSocket, floor: floorSocket,
                bare: bareSocket,
                missing: missing)
        }
        if sections.contains("fanout") {
            report.results += FanoutBench(socketPath: menudSocket).run()
        }
        if sections.contains("client") {
            if missing["redis"] != nil {
                report.results.append(
                    BenchResult(section: "client", name: "one-shot `menuctl get`", value: "redis not running")
                )
            } else {
                report.results.append(client(menud: menudSocket, redis: redisSocket))
            }
        }
        return report
    }

    private func driveAll(
        menud: String, mpd: String?, redis: String, floor: String, bare: String, missing: [String: String]
    ) -> Report {
        let cases = [
            SocketCase("menud", "ping", socket: menud, dialect: .menud),
            SocketCase("menud", "get display/volume", socket: menud, dialect: .menud),
            SocketCase("menud", "toggle power", socket: menud, dialect: .menud),
            SocketCase("mpd", "ping", socket: mpd ?? "", dialect: .mpd),
            SocketCase("mpd", "status", socket: mpd ?? "", dialect: .mpd),
            SocketCase("redis", "PING", socket: redis, dialect: .redis),
            SocketCase("redis", "GET menubench", socket: redis, dialect: .redis),
            SocketCase("redis", "SET menubench 1", socket: redis, dialect: .redis),
            SocketCase("loop floor", "ping", socket: floor, dialect: .menud),
            SocketCase("bare floor", "ping", socket: bare, dialect: .menud),
        ]
        // GET reads a key that exists, as mpd's `status` and menud's `get` read theirs.
        if missing["redis"] == nil {
            _ = SocketLoad(
                socketPath: redis, dialect: .redis, connections: 1, pipeline: 1,
                requests: [Array("SET menubench 1\r\n".utf8)], seconds: 1, maxRequests: 1
            ).run()
        }
        var matrix = SocketMatrix(loads: SocketBench.loads)
        var outcomes: [String: [SocketMatrix.Load: SocketLoad.Outcome]] = [:]
        // Servers take turns at each load, round after round, so that a burst of load
        // from elsewhere on the machine falls on all of them; such a burst only ever
        // slows a server, so each keeps its best round. Each round starts further
        // along the list, so that what slows the first case after a change of load
        // does not fall on the same server every round.
        for load in SocketBench.loads {
            for round in 0..<rounds {
                let first = round * cases.count / rounds
                for c in cases[first...] + cases[..<first] {
                    if let why = missing[c.server] {
                        matrix.note(c.name, load, why)
                        continue
                    }
                    // The generator's own sockets, the servers' and a margin for the rest.
                    if load.connections + 64 > openFiles {
                        matrix.note(c.name, load, "open-file limit \(openFiles)")
                        continue
                    }
                    let outcome = SocketLoad(
                        socketPath: c.socket, dialect: c.dialect, connections: load.connections,
                        pipeline: load.pipeline, requests: [c.line], seconds: seconds, maxRequests: requests
                    ).run()
                    if let best = outcomes[c.name]?[load], best.perSecond >= outcome?.perSecond ?? 0 {
                        continue
                    }
                    matrix.record(c.name, load, outcome)
                    if let outcome { outcomes[c.name, default: [:]][load] = outcome }
                }
            }
        }
        var results: [BenchResult] = []
        for load in SocketBench.ratioLoads {
            for (ours, peer, why) in SocketBench.ratios {
                let name = "\(ours) / \(peer) (\(why)), \(load.label)"
                guard let a = outcomes[ours]?[load], let b = outcomes[peer]?[load] else {
                    results.append(BenchResult(section: "socket", name: name, value: "not measured"))
                    continue
                }
                let ratio = a.perSecond / b.perSecond
                let p99Met = a.p99 <= b.p99
                results.append(
                    BenchResult(
                        section: "socket", name: name, value: "\(BenchResult.rounded(ratio))× throughput",
                        comparison:
                            "\(SocketMatrix.rate(a.perSecond)) against \(SocketMatrix.rate(b.perSecond)) req/s; p99 \(BenchResult.micros(a.p99)) against \(BenchResult.micros(b.p99)) (p99 ≤ peer's: \(p99Met ? "yes" : "no"))",
                        target: "≥ 1.0×, p99 ≤ peer's", met: ratio >= 1.0 && p99Met && a.errors == 0))
            }
        }
        return Report(results: results, matrix: matrix)
    }

    private func client(menud: String, redis: String) -> BenchResult {
        let times = 31
        let ctl = ChildProcess.median(
            ["\(binDir)/menuctl", "--socket", menud, "get", "display/volume"], times: times)
        let cli = ChildProcess.median(["/usr/bin/redis-cli", "-s", redis, "PING"], times: times)
        let ratio = ctl.nanos / cli.nanos
        return BenchResult(
            section: "client", name: "one-shot `menuctl get` (median of \(times))",
            value: BenchResult.micros(ctl.nanos),
            comparison:
                "`redis-cli PING` \(BenchResult.micros(cli.nanos)), ratio \(BenchResult.rounded(ratio))×",
            target: "≤ 1.0× redis-cli", met: ratio <= 1.0 && ctl.status == 0)
    }

    static func waitForSocket(_ path: String) -> Bool {
        for _ in 0..<500 {
            if let fd = SocketLoad.connect(path) {
                close(fd)
                return true
            }
            usleep(10_000)
        }
        return false
    }
}
