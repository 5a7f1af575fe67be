import Foundation
import MenuClient
import MenuCore

/// Section 6: reloading a big menu while a client is being served. One client pings
/// menud without pause, one request at a time, while another asks for `reload`; the
/// figure is the longest the pinging client waited for a reply while the reload ran
/// and for a second after its reply (which takes in the state write it schedules).
/// The same client pinging an idle menud for as long is its baseline. Memory is read
/// from `/proc` after going from a small menu to the big one and back.
struct ReloadBench {
    var nodes: Int
    var binDir: String
    var workDir: String

    /// The target: no client waits longer than this while a reload runs.
    static let stallTarget = 5e6

    func run() -> [BenchResult] {
        let config = "\(workDir)/reload.yaml"
        let small = MenuGenerator(nodes: 10).yaml()
        let big = MenuGenerator(nodes: nodes).yaml()
        let socket = "\(workDir)/reload.sock"
        func fail(_ why: String) -> [BenchResult] {
            [BenchResult(section: "reload", name: "menud", value: why)]
        }
        guard (try? Data(small.utf8).write(to: URL(fileURLWithPath: config))) != nil else {
            return fail("cannot write \(config)")
        }
        let argv = [
            "\(binDir)/menud", "--config", config, "--socket", socket, "--state", "\(workDir)/reload.state",
            "--no-watch",
        ]
        guard let pid = ChildProcess.start(argv) else { return fail("could not start menud") }
        defer { ChildProcess.stop(pid) }
        guard SocketBench.waitForSocket(socket) else { return fail("menud did not come up") }
        let startRSS = Self.residentBytes(of: pid)

        try? Data(big.utf8).write(to: URL(fileURLWithPath: config))
        guard let up = reload(socket) else { return fail("the reload to \(nodes) nodes failed") }
        let bigRSS = Self.residentBytes(of: pid)
        guard let again = reload(socket) else { return fail("the reload of \(nodes) nodes failed") }
        let idle = pingAlone(socket, seconds: Stopwatch.nanos(again.duration) / 1e9 + 1)
        try? Data(small.utf8).write(to: URL(fileURLWithPath: config))
        guard let down = reload(socket) else { return fail("the reload back to 10 nodes failed") }
        // The old model is freed, and memory given back, on a pool thread after the reply.
        usleep(1_000_000)
        let endRSS = Self.residentBytes(of: pid)

        let n = nodes.formatted()
        func stall(_ name: String, _ run: ReloadRun) -> BenchResult {
            BenchResult(
                section: "reload", name: name,
                value:
                    "longest ping wait \(BenchResult.micros(run.longestWait)); the reload took \(BenchResult.micros(Stopwatch.nanos(run.duration))), \(run.pings) pings meanwhile",
                comparison:
                    "idle: longest ping wait \(BenchResult.micros(idle.longestWait)), \(idle.pings) pings",
                target: "longest wait < \(BenchResult.micros(Self.stallTarget))",
                met: run.longestWait < Self.stallTarget)
        }
        return [
            stall("10 → \(n) nodes", up),
            stall("\(n) → \(n) nodes", again),
            stall("\(n) → 10 nodes", down),
            BenchResult(
                section: "reload", name: "resident memory",
                value:
                    "\(Self.megabytes(startRSS)) at 10 nodes, \(Self.megabytes(bigRSS)) at \(n), \(Self.megabytes(endRSS)) back at 10",
                comparison: "",
                target: "≥ 75% of what the big menu took given back",
                met: bigRSS > startRSS && Double(bigRSS - endRSS) >= 0.75 * Double(bigRSS - startRSS)),
        ]
    }

    struct ReloadRun {
        var duration: Duration
        var longestWait: Double
        var pings: Int
    }

    /// Reloads while another client pings; nil when the reload fails.
    private func reload(_ socket: String) -> ReloadRun? {
        let pinger = Pinger(socket: socket)
        pinger.start()
        defer { pinger.stop() }
        guard let connection = try? UnixSocketConnection.connect(path: socket),
            (try? connection.readGreeting()) != nil
        else { return nil }
        connection.setReceiveTimeout(seconds: 600)
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? connection.send("reload\n")) != nil, let reply = try? connection.readReply(), reply.isOK
        else { return nil }
        let duration = clock.now - start
        // The state write a reload schedules comes a quarter of a second later.
        usleep(1_000_000)
        let (longest, pings) = pinger.stop()
        return ReloadRun(duration: duration, longestWait: longest, pings: pings)
    }

    private func pingAlone(_ socket: String, seconds: Double) -> ReloadRun {
        let pinger = Pinger(socket: socket)
        pinger.start()
        usleep(UInt32(min(seconds, 30) * 1e6))
        let (longest, pings) = pinger.stop()
        return ReloadRun(duration: .seconds(seconds), longestWait: longest, pings: pings)
    }

    static func residentBytes(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return 0
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return 0
    }

    static func megabytes(_ bytes: Int) -> String {
        "\(BenchResult.rounded(Double(bytes) / 1e6, places: 1)) MB"
    }
}

/// A client that pings on a thread of its own, one request at a time, and keeps the
/// longest wait for a reply.
final class Pinger: @unchecked Sendable {
    private let socket: String
    private let lock = NSLock()
    private var running = true
    private var longest = 0.0
    private var count = 0
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(socket: String) { self.socket = socket }

    func start() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { done.signal() }
            guard let connection = try? UnixSocketConnection.connect(path: socket),
                (try? connection.readGreeting()) != nil
            else {
                ready.signal()
                return
            }
            ready.signal()
            let clock = ContinuousClock()
            while lock.withLock({ running }) {
                let sent = clock.now
                guard (try? connection.send("ping\n")) != nil, (try? connection.readReply()) != nil else {
                    return
                }
                let wait = Stopwatch.nanos(clock.now - sent)
                lock.withLock {
                    longest = max(longest, wait)
                    count += 1
                }
            }
        }
        self.thread = thread
        thread.start()
        ready.wait()
    }

    /// Stops it, once, and gives the longest wait in nanoseconds and how many pings it sent.
    @discardableResult
    func stop() -> (Double, Int) {
        let wasRunning = lock.withLock {
            let was = running
            running = false
            return was
        }
        if wasRunning { done.wait() }
        return lock.withLock { (longest, count) }
    }
}
