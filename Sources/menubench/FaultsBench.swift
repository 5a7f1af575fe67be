import Foundation
import Glibc
import MenuCore

/// Section `faults`: loads that once starved menud's clients, each against the same
/// client's pings with the load off, in the same run (``AlternatingPings``):
///
/// - 10 clients sending `find` back to back to a 1M-node menu (100k with --quick),
///   the find section's menu and queries;
/// - a `children-cmd` group of 15,000 nodes, about 860 KiB of output whose titles
///   change on every run, refreshed every 100 ms while it is open (the load is the group
///   opened, the idle slices have it closed);
/// - resident memory while 1,000 nodes are polled every 100 ms, more runs than the
///   machine can start, for 10 minutes (1 with --quick, N with --poll-minutes N).
struct FaultsBench {
    var binDir: String
    var workDir: String
    var quick: Bool
    /// How long memory is watched under overloaded polling.
    var pollMinutes: Int

    static let section = "faults"
    static let searchers = 10

    func run() -> [BenchResult] {
        searching() + refreshing() + overloadedPolling()
    }

    // MARK: - Clients searching

    private func searching() -> [BenchResult] {
        let nodes = quick ? 100_000 : 1_000_000
        let name =
            "`ping` p99 while \(Self.searchers) clients run `find` back to back, \(nodes.formatted()) nodes"
        let menu = Self.yaml(FindBench.menu(nodes: nodes).specs)
        guard
            let daemon = BenchDaemon(
                menu: menu, name: "faults-find", binDir: binDir, workDir: workDir, seconds: 120)
        else { return [failure(name, "menud did not come up")] }
        defer { daemon.stop() }
        guard var client = SocketLines.greeted(daemon.socket) else {
            return [failure(name, "could not connect")]
        }
        defer { close(client.fd) }
        let searchers = Searchers(socket: daemon.socket, count: Self.searchers)
        guard searchers.start() else { return [failure(name, "a searcher could not connect")] }
        guard
            let pings = AlternatingPings.measure(
                &client, slices: quick ? 20 : 40,
                load: { on in
                    searchers.searching = on
                    // An idle slice starts once the finds under way are answered.
                    if !on { searchers.waitForAnswers() }
                })
        else {
            searchers.stop()
            return [failure(name, "ping failed")]
        }
        let (finds, seconds, failed) = searchers.stop()
        guard failed == 0 else { return [failure(name, "\(failed) finds failed")] }
        return [
            BenchResult(
                section: Self.section, name: name,
                value: pings.figure("\(Int((Double(finds) / seconds).rounded())) finds/s"),
                comparison: pings.comparison, target: "≤ 2× idle", met: pings.ratio <= 2)
        ]
    }

    /// The menu as a config: ids, titles and keywords.
    static func yaml(_ specs: [NodeSpec]) -> String {
        var out = "menu:\n"
        func emit(_ specs: [NodeSpec], _ depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            for spec in specs {
                let title = spec.title.segments.map { segment -> String in
                    if case .literal(let text) = segment { return text }
                    return ""
                }.joined()
                out += "\(pad)- id: \(spec.id)\n\(pad)  title: \"\(title)\"\n"
                if !spec.keywords.isEmpty {
                    out +=
                        "\(pad)  keywords: [\(spec.keywords.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
                }
                if spec.kind == .group {
                    if spec.children.isEmpty {
                        out += "\(pad)  children: []\n"
                    } else {
                        out += "\(pad)  children:\n"
                        emit(spec.children, depth + 2)
                    }
                } else {
                    out += "\(pad)  exec: \"true\"\n"
                }
            }
        }
        emit(specs, 1)
        return out
    }

    // MARK: - A large group refreshed

    private func refreshing() -> [BenchResult] {
        let nodes = 15_000
        let name =
            "`ping` p99 while a `children-cmd` group of \(nodes.formatted()) changing nodes refreshes every 100 ms"
        let script = "\(workDir)/faults-children.sh"
        let runs = "\(workDir)/faults-children.runs"
        // Every run prints other titles: the output is never the same twice.
        let text = """
            #!/bin/sh
            echo >> '\(runs)'
            exec awk -v seed="$$" 'BEGIN { srand(seed); for (i = 0; i < \(nodes); i++) printf "- {id: n%d, title: \\"Network %d at %d%%\\", type: toggle}\\n", i, i, int(rand() * 100) }'

            """
        guard FileManager.default.createFile(atPath: script, contents: Data(text.utf8)),
            chmod(script, 0o755) == 0,
            FileManager.default.createFile(atPath: runs, contents: nil)
        else { return [failure(name, "cannot write \(script)")] }
        let menu = """
            menu:
              - id: nets
                title: Networks
                children-cmd: '\(script)'
                refresh: 100ms

            """
        guard let daemon = BenchDaemon(menu: menu, name: "faults-refresh", binDir: binDir, workDir: workDir)
        else { return [failure(name, "menud did not come up")] }
        defer { daemon.stop() }
        guard var client = SocketLines.greeted(daemon.socket),
            var control = SocketLines.greeted(daemon.socket)
        else { return [failure(name, "could not connect")] }
        defer {
            close(client.fd)
            close(control.fd)
        }
        // Under menud's 1 MiB cap on a command's output, or no run would be applied.
        let size = ChildProcess.output(of: [script]).count
        guard size > 0, size < 1 << 20 else { return [failure(name, "the command printed \(size) bytes")] }
        let before = LiveBench.lineCount(runs)
        var open = false
        guard
            let pings = AlternatingPings.measure(
                &client, slices: quick ? 20 : 40,
                load: { wanted in
                    guard wanted != open else { return }
                    open = wanted
                    _ = control.request(wanted ? "expand nets" : "collapse nets")
                })
        else { return [failure(name, "ping failed")] }
        let refreshed = LiveBench.lineCount(runs) - before
        let seconds = Double(quick ? 20 : 40) * 0.25 / 2
        return [
            BenchResult(
                section: Self.section, name: name,
                value: pings.figure(
                    "\(BenchResult.rounded(Double(refreshed) / seconds, places: 1)) runs/s of \(size / 1024) KiB"
                ),
                comparison: pings.comparison, target: "≤ 2× idle", met: pings.ratio <= 2)
        ]
    }

    // MARK: - Polling beyond what can be run

    private func overloadedPolling() -> [BenchResult] {
        let nodes = 1000
        let minutes = max(1, pollMinutes)
        let name = "resident memory while \(nodes.formatted()) nodes are polled every 100 ms, \(minutes) min"
        var menu = "menu:\n"
        for n in 0..<nodes {
            menu +=
                "  - {id: n\(n), type: text, title: \"N\(n): {value}\", interval: 100ms, value-cmd: echo \(n)}\n"
        }
        guard let daemon = BenchDaemon(menu: menu, name: "faults-poll", binDir: binDir, workDir: workDir)
        else { return [failure(name, "menud did not come up")] }
        defer { daemon.stop() }
        // The first half minute fills the queue and the allocator's pools; from then
        // on memory that grows is memory that is kept.
        usleep(30_000_000)
        var samples: [Int] = []
        let every: UInt32 = quick ? 5 : 30
        let count = minutes * 60 / Int(every)
        for k in 0...count {
            if k > 0 { usleep(every * 1_000_000) }
            samples.append(daemon.residentBytes)
        }
        guard let first = samples.first, let last = samples.last, let most = samples.max(), first > 0 else {
            return [failure(name, "cannot read menud's memory")]
        }
        let mib = { (bytes: Int) in "\(BenchResult.rounded(Double(bytes) / 1_048_576, places: 1)) MiB" }
        let perMinute = Double(last - first) / Double(minutes)
        return [
            BenchResult(
                section: Self.section, name: name,
                value: "\(mib(first)) after 30 s, \(mib(last)) at the end, at most \(mib(most))",
                comparison:
                    "\(BenchResult.rounded(perMinute / 1024, places: 1)) KiB/min; sampled every \(every) s",
                target: "flat (≤ 64 KiB/min)", met: perMinute <= 65_536)
        ]
    }

    private func failure(_ name: String, _ why: String) -> BenchResult {
        .failed(Self.section, name, why)
    }
}

/// Clients that send `find` back to back, each on a connection and thread of its
/// own, while ``searching``; idle otherwise.
final class Searchers: @unchecked Sendable {
    private let socket: String
    private let count: Int
    private let lock = NSLock()
    private var running = true
    private var on = false
    private var finds = 0
    private var failed = 0
    private var searchingNanos: UInt64 = 0
    private let done = DispatchSemaphore(value: 0)
    private var started = 0
    private var asking = 0

    init(socket: String, count: Int) {
        self.socket = socket
        self.count = count
    }

    var searching: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }

    /// Waits until every find sent has its answer.
    func waitForAnswers() {
        while lock.withLock({ asking > 0 }) { usleep(200) }
    }

    /// False when a client cannot connect.
    func start() -> Bool {
        var clients: [SocketLines] = []
        for _ in 0..<count {
            guard let client = SocketLines.greeted(socket) else {
                for c in clients { close(c.fd) }
                return false
            }
            clients.append(client)
        }
        started = clients.count
        for (k, client) in clients.enumerated() {
            Thread { [self] in
                var client = client
                defer {
                    close(client.fd)
                    done.signal()
                }
                var next = k * 7
                while true {
                    let (running, on) = lock.withLock { (self.running, self.on) }
                    guard running else { return }
                    guard on else {
                        usleep(1000)
                        continue
                    }
                    let query = FindBench.queries[next % FindBench.queries.count]
                    next += 1
                    // Counted under the lock that turns searching off, so that a
                    // find is either counted or never sent.
                    guard
                        lock.withLock({ () -> Bool in
                            guard self.on else { return false }
                            asking += 1
                            return true
                        })
                    else { continue }
                    let sent = SocketLoad.now()
                    let ok = client.request("find \"\(query)\" 20")
                    let took = SocketLoad.now() - sent
                    lock.withLock {
                        if ok { finds += 1 } else { failed += 1 }
                        searchingNanos += took
                        asking -= 1
                    }
                }
            }.start()
        }
        return true
    }

    /// Stops the clients and says how many finds they made, over how many seconds of
    /// a client's searching, and how many failed.
    @discardableResult
    func stop() -> (finds: Int, seconds: Double, failed: Int) {
        let wasRunning = lock.withLock {
            let was = running
            running = false
            return was
        }
        if wasRunning { for _ in 0..<started { done.wait() } }
        return lock.withLock { (finds, Double(searchingNanos) / 1e9 / Double(max(1, started)), failed) }
    }
}
