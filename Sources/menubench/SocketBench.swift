import Foundation
import MenuCore

/// Sections 3 and 4: socket throughput and latency, and one-shot client start, each
/// next to redis on a Unix socket in the same run. redis is the reference because it
/// is the usual "fastest small daemon" a desktop already runs.
struct SocketBench {
    var binDir: String
    var workDir: String
    var seconds: Double

    func run(sections: Set<String>) -> [BenchResult] {
        let config = "\(workDir)/menu.yaml"
        try? Data(BuiltinMenu.yaml.utf8).write(to: URL(fileURLWithPath: config))
        let menudSocket = "\(workDir)/menud.sock"
        let redisSocket = "\(workDir)/redis.sock"
        guard
            let menud = ChildProcess.start([
                "\(binDir)/menud", "--config", config, "--socket", menudSocket, "--no-state",
            ])
        else { return [BenchResult(section: "socket", name: "menud", value: "could not start")] }
        defer { ChildProcess.stop(menud) }
        guard
            let redis = ChildProcess.start([
                "redis-server", "--port", "0", "--unixsocket", redisSocket, "--save", "", "--appendonly",
                "no",
            ])
        else { return [BenchResult(section: "socket", name: "redis-server", value: "not installed")] }
        defer { ChildProcess.stop(redis) }
        // The two baselines that answer `OK` to every line: through SwiftNIO, and from
        // a bare poll loop.
        let floorSocket = "\(workDir)/floor.sock"
        let bareSocket = "\(workDir)/bare.sock"
        var floors: [pid_t] = []
        defer { floors.forEach(ChildProcess.stop) }
        for (command, socket) in [("nio-floor", floorSocket), ("bare-floor", bareSocket)] {
            guard let floor = ChildProcess.start(["\(binDir)/menubench", command, "--socket", socket]) else {
                return [BenchResult(section: "socket", name: command, value: "could not start")]
            }
            floors.append(floor)
        }
        guard SocketBench.waitForSocket(menudSocket), SocketBench.waitForSocket(redisSocket),
            SocketBench.waitForSocket(floorSocket), SocketBench.waitForSocket(bareSocket)
        else {
            return [BenchResult(section: "socket", name: "servers", value: "did not come up")]
        }
        var out: [BenchResult] = []
        if sections.contains("socket") {
            for (c, p) in [(1, 1), (50, 1), (50, 16)] {
                func drive(_ socket: String, _ dialect: SocketLoad.Dialect) -> SocketLoad.Outcome? {
                    SocketLoad(
                        socketPath: socket, dialect: dialect, connections: c, pipeline: p,
                        requests: dialect == .redis ? SocketLoad.redisRequests : SocketLoad.menudRequests,
                        seconds: seconds
                    ).run()
                }
                guard let ours = drive(menudSocket, .menud), let theirs = drive(redisSocket, .redis),
                    let floor = drive(floorSocket, .menud), let bare = drive(bareSocket, .menud)
                else {
                    out.append(BenchResult(section: "socket", name: "c=\(c) P=\(p)", value: "failed"))
                    continue
                }
                let ratio = ours.perSecond / theirs.perSecond
                var line = BenchResult(
                    section: "socket", name: "get/toggle, c=\(c) P=\(p)", value: ours.summary,
                    comparison: "redis PING \(theirs.summary); throughput \(BenchResult.rounded(ratio))×"
                )
                if c == 50 {
                    line.target = "≥ 1.0× redis, p99 ≤ redis"
                    line.met = ratio >= 1.0 && ours.p99 <= theirs.p99
                }
                if ours.errors > 0 { line.comparison += "; \(ours.errors) ERR replies" }
                out.append(line)
                out.append(
                    BenchResult(
                        section: "socket", name: "NIO floor (`OK` to every line), c=\(c) P=\(p)",
                        value: floor.summary,
                        comparison:
                            "redis throughput \(BenchResult.rounded(floor.perSecond / theirs.perSecond))×; menud \(BenchResult.rounded(ours.perSecond / floor.perSecond))× the floor"
                    ))
                out.append(
                    BenchResult(
                        section: "socket",
                        name: "bare poll-loop floor (`OK` to every line, no NIO), c=\(c) P=\(p)",
                        value: bare.summary,
                        comparison:
                            "redis throughput \(BenchResult.rounded(bare.perSecond / theirs.perSecond))×; NIO floor \(BenchResult.rounded(floor.perSecond / bare.perSecond))× this one"
                    ))
            }
        }
        if sections.contains("fanout") {
            out += FanoutBench(socketPath: menudSocket).run()
        }
        if sections.contains("client") {
            let times = 31
            let ctl = ChildProcess.median(
                ["\(binDir)/menuctl", "--socket", menudSocket, "get", "display/volume"], times: times)
            let cli = ChildProcess.median(["/usr/bin/redis-cli", "-s", redisSocket, "PING"], times: times)
            let ratio = ctl.nanos / cli.nanos
            out.append(
                BenchResult(
                    section: "client", name: "one-shot `menuctl get` (median of \(times))",
                    value: BenchResult.micros(ctl.nanos),
                    comparison:
                        "`redis-cli PING` \(BenchResult.micros(cli.nanos)), ratio \(BenchResult.rounded(ratio))×",
                    target: "≤ 1.0× redis-cli", met: ratio <= 1.0 && ctl.status == 0))
        }
        return out
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
