import Foundation
import Glibc

/// Section 7: values read from the system. Three questions, each with a menud of
/// its own, against a baseline taken in the same run:
///
/// - How long from a listener's line to the last of 100 subscribers having its
///   event: menud's `value-listen` reads a FIFO (`exec cat FIFO`) that the bench
///   writes lines to, and 100 connections `subscribe value`; the clock runs from the
///   write to the FIFO to the moment the last subscriber has read the whole group.
///   Its floor is the same line through a `cat` of the bench's own (``CatFloor``).
/// - What polling costs the daemon: its context switches (every thread's, from
///   `/proc`) over a window, scaled to a minute, with 0, 10 and 1,000 nodes polled
///   every 5 s, beside the command runs in the same window; then the timer alone,
///   with commands that are still running when it fires, so that a firing starts
///   nothing. And a client's `ping` latency while 1,000 nodes are polled, against
///   none.
/// - Whether a flooding listener slows the daemon for its clients: `ping` latency
///   while the FIFO gets 1,000 lines a second, against the same client while it gets
///   none, in alternating slices.
struct LiveBench {
    var binDir: String
    var workDir: String
    var quick: Bool

    static let section = "live"
    static let subscribers = 100
    /// The target for a line to reach the last subscriber.
    static let fanoutTarget = 2e6

    func run() -> [BenchResult] {
        listener() + polling()
    }

    // MARK: - A listener's lines

    private func listener() -> [BenchResult] {
        let directory = "\(workDir)/live"
        let fifo = "\(directory)/lines"
        guard mkdir(directory, 0o700) == 0, mkfifo(fifo, 0o600) == 0 else {
            return failed("listener", "cannot make \(fifo)")
        }
        let menu = """
            menu:
              - id: line
                type: text
                title: "Line: {value}"
                value-listen: exec cat '\(fifo)'

            """
        guard let daemon = BenchDaemon(menu: menu, name: "live", binDir: binDir, workDir: workDir) else {
            return failed("listener", "menud did not come up")
        }
        defer { daemon.stop() }
        // Read and write, so that opening it waits for no reader and the listener
        // never sees the end of it while the bench runs.
        let writer = open(fifo, O_RDWR)
        guard writer >= 0 else { return failed("listener", "cannot open \(fifo)") }
        defer { close(writer) }
        guard let floor = CatFloor(fifo: "\(directory)/floor") else {
            return failed("listener", "cannot start the floor's cat")
        }
        defer { floor.stop() }
        return fanout(daemon.socket, writer, floor)
            + pingUnderFlood(
                daemon.socket, Flood(fd: writer, perSecond: 1000),
                name: "`ping` p99 while a listener gets 1,000 lines/s")
            + pingUnderFlood(
                daemon.socket, Flood(fd: writer, perSecond: 1000, block: Self.yesBlock),
                name: "`ping` p99 while a listener gets lines as fast as it reads them (`yes on`)")
    }

    /// What `yes on` writes at a time: 64 KiB of `on` lines.
    static let yesBlock = Array(String(repeating: "on\n", count: 65_536 / 3).utf8)

    /// Each round is followed by one of the floor's, so that what else the machine
    /// does falls on both alike.
    private func fanout(_ socket: String, _ fifo: Int32, _ floor: CatFloor) -> [BenchResult] {
        let name = "listener line → last of \(Self.subscribers) subscribers has its value event"
        var readers: [SocketLines] = []
        defer { for reader in readers { close(reader.fd) } }
        for _ in 0..<Self.subscribers {
            guard var reader = SocketLines.greeted(socket), reader.request("subscribe value") else {
                return failed(name, "could not subscribe")
            }
            readers.append(reader)
        }
        let warmup = 10
        let rounds = quick ? 100 : 300
        var latencies: [Double] = []
        var floorLatencies: [Double] = []
        for round in 0..<(warmup + rounds) {
            guard let floorLatency = floor.roundTrip("floor-\(round)") else {
                return failed(name, "the floor's cat did not answer")
            }
            if round >= warmup { floorLatencies.append(floorLatency) }
            let value = "line-\(round)"
            let record = "\tvalue\tline\t\(value)"
            let bytes = Array((value + "\n").utf8)
            let written = SocketLoad.now()
            guard write(fifo, bytes, bytes.count) == bytes.count else { return failed(name, "write failed") }
            var waiting = readers.count
            var seen = [Bool](repeating: false, count: readers.count)
            var polled = readers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            while waiting > 0 {
                guard poll(&polled, nfds_t(polled.count), 5000) > 0 else {
                    return failed(name, "the events did not arrive")
                }
                for k in polled.indices where polled[k].revents != 0 {
                    guard let lines = readers[k].lines() else {
                        return failed(name, "a subscriber was dropped")
                    }
                    for line in lines where line.hasPrefix("event\t") {
                        if line.hasSuffix(record) {
                            seen[k] = true
                        } else if seen[k], line.hasSuffix("\tend") {
                            waiting -= 1
                            polled[k].fd = -1
                        }
                    }
                }
            }
            if round >= warmup { latencies.append(Double(SocketLoad.now() - written)) }
        }
        latencies.sort()
        floorLatencies.sort()
        let p50 = AlternatingPings.percentile(latencies, 50)
        let p99 = AlternatingPings.percentile(latencies, 99)
        return [
            BenchResult(
                section: Self.section, name: "\(name) (\(rounds) lines)",
                value: "p50 \(BenchResult.micros(p50)), p99 \(BenchResult.micros(p99))",
                comparison:
                    "floor, the line through `cat` to the bench alone: p50 \(BenchResult.micros(AlternatingPings.percentile(floorLatencies, 50))), p99 \(BenchResult.micros(AlternatingPings.percentile(floorLatencies, 99)))",
                target: "p99 ≤ 2 ms", met: p99 <= Self.fanoutTarget)
        ]
    }

    private func pingUnderFlood(_ socket: String, _ flood: Flood, name: String) -> [BenchResult] {
        guard var client = SocketLines.greeted(socket) else { return failed(name, "could not connect") }
        defer { close(client.fd) }
        flood.start()
        defer { flood.stop() }
        // The flood's thread wakes every millisecond in both kinds of slice: only the
        // lines differ.
        guard
            let pings = AlternatingPings.measure(
                &client, slices: quick ? 20 : 40, load: { flood.flooding = $0 })
        else { return failed(name, "ping failed") }
        let (lines, seconds) = flood.stop()
        return [
            BenchResult(
                section: Self.section, name: name,
                value: pings.figure("\(Int((Double(lines) / seconds).rounded())) lines/s"),
                comparison: pings.comparison, target: "≤ 2× idle", met: pings.ratio <= 2)
        ]
    }

    // MARK: - Polling

    private func polling() -> [BenchResult] {
        let window = quick ? 10.0 : 30.0
        var results: [BenchResult] = []
        var idle: [Double] = []
        for nodes in [0, 10, 1000] {
            // After the count, a client pings for longer than an interval, so that
            // it meets a firing: with none polled, and with 1,000.
            let (row, pings) = pollingCost(nodes: nodes, window: window, pingSeconds: nodes == 10 ? 0 : 6)
            results.append(row)
            if nodes == 0 { idle = pings }
            guard nodes == 1000, !pings.isEmpty, !idle.isEmpty else { continue }
            results.append(
                BenchResult(
                    section: Self.section, name: "`ping` while 1,000 nodes are polled every 5 s",
                    value:
                        "longest wait \(BenchResult.micros(pings.last!)), p99 \(BenchResult.micros(AlternatingPings.percentile(pings, 99))); \(pings.count) pings over 6 s",
                    comparison:
                        "none polled: longest wait \(BenchResult.micros(idle.last!)), p99 \(BenchResult.micros(AlternatingPings.percentile(idle, 99)))"
                ))
        }
        return results + [timerAlone(nodes: 1000)]
    }

    /// `nodes` text nodes, each reading `command` every `interval`.
    private static func pollingMenu(nodes: Int, interval: String, command: String) -> String {
        guard nodes > 0 else { return "menu:\n  - id: wifi\n    type: toggle\n    title: Wi-Fi\n" }
        var text = "menu:\n"
        for n in 0..<nodes {
            text += """
                  - id: n\(n)
                    type: text
                    title: "N\(n): {value}"
                    interval: \(interval)
                    value-cmd: \(command)

                """
        }
        return text
    }

    /// The row, and the sorted latencies of a client's pings over `pingSeconds` after
    /// the count.
    private func pollingCost(nodes: Int, window: Double, pingSeconds: Double) -> (BenchResult, [Double]) {
        let name = "\(nodes.formatted()) nodes polled every 5 s"
        let runs = "\(workDir)/poll-\(nodes).runs"
        guard FileManager.default.createFile(atPath: runs, contents: nil) else {
            return (failure(name, "cannot write \(runs)"), [])
        }
        let menu = Self.pollingMenu(nodes: nodes, interval: "5s", command: "echo >> '\(runs)'; echo 1")
        guard let daemon = BenchDaemon(menu: menu, name: "poll-\(nodes)", binDir: binDir, workDir: workDir)
        else {
            return (failure(name, "menud did not come up"), [])
        }
        defer { daemon.stop() }
        // The first runs come at start; the window begins once they are done.
        guard BenchDaemon.waitUntil(seconds: 60, { Self.lineCount(runs) >= nodes }) else {
            return (failure(name, "the first runs did not come"), [])
        }
        usleep(500_000)
        let switches = Self.contextSwitches(daemon.pid)
        let ran = Self.lineCount(runs)
        let start = SocketLoad.now()
        usleep(UInt32(window * 1e6))
        let woke = Self.contextSwitches(daemon.pid) - switches
        let commands = Self.lineCount(runs) - ran
        let perMinute = 60e9 / Double(SocketLoad.now() - start)
        var comparison = "\(Self.perMinute(commands, perMinute)) command runs/min"
        if commands > 0 {
            comparison +=
                ", \(BenchResult.rounded(Double(woke) / Double(commands), places: 1)) switches per run"
        }
        let row = BenchResult(
            section: Self.section, name: name,
            value: "\(Self.perMinute(woke, perMinute)) context switches/min",
            comparison: comparison + "; over \(Int(window)) s",
            target: nodes == 0 ? "0" : "", met: nodes == 0 ? woke == 0 : nil)
        guard pingSeconds > 0, var client = SocketLines.greeted(daemon.socket) else { return (row, []) }
        defer { close(client.fd) }
        var pings: [Double] = []
        let end = SocketLoad.now() + UInt64(pingSeconds * 1e9)
        while SocketLoad.now() < end {
            let sent = SocketLoad.now()
            guard client.request("ping") else { break }
            pings.append(Double(SocketLoad.now() - sent))
            usleep(UInt32.random(in: 0...1000))
        }
        return (row, pings.sorted())
    }

    /// The timer alone: the commands block, so each firing finds every node's run
    /// still under way and starts nothing. A run is killed after 10 s (menud's
    /// `value-cmd` timeout) and started again, so the window ends before the first
    /// could be, and the interval is 1 s to fit several firings in it.
    private func timerAlone(nodes: Int) -> BenchResult {
        let name =
            "the 5 s rows' timer alone: \(nodes.formatted()) nodes, 1 s interval, every run still going"
        let started = "\(workDir)/timer-\(nodes).started"
        guard FileManager.default.createFile(atPath: started, contents: nil) else {
            return failure(name, "cannot write \(started)")
        }
        let menu = Self.pollingMenu(
            nodes: nodes, interval: "1s", command: "echo >> '\(started)'; exec sleep 3600")
        let launched = SocketLoad.now()
        guard let daemon = BenchDaemon(menu: menu, name: "timer-\(nodes)", binDir: binDir, workDir: workDir)
        else {
            return failure(name, "menud did not come up")
        }
        defer { daemon.stop() }
        let end = launched + 9_000_000_000
        guard BenchDaemon.waitUntil(seconds: 6, { Self.lineCount(started) >= nodes }),
            SocketLoad.now() + 3_000_000_000 < end
        else { return failure(name, "starting the commands took too long") }
        // Whole intervals: a window of k periods holds exactly k firings.
        let firings = Int((end - SocketLoad.now()) / 1_000_000_000)
        let switches = Self.contextSwitches(daemon.pid)
        usleep(UInt32(firings) * 1_000_000)
        let woke = Self.contextSwitches(daemon.pid) - switches
        guard Self.lineCount(started) == nodes else { return failure(name, "a run ended and started again") }
        let perFiring = Double(woke) / Double(firings)
        return BenchResult(
            section: Self.section, name: name,
            value: "wake-ups per firing: \(BenchResult.rounded(perFiring))",
            comparison: "\(woke) context switches in \(firings) intervals",
            target: "1 per interval", met: perFiring <= 1.5)
    }

    // MARK: - Helpers

    /// Every thread's voluntary and nonvoluntary context switches, summed: a thread
    /// asleep in `epoll_wait` or on the pool's queue switches only when woken.
    static func contextSwitches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var total = 0
        for task in tasks {
            guard
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:")
            {
                total += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return total
    }

    static func lineCount(_ path: String) -> Int {
        ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()).reduce(0) {
            $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0)
        }
    }

    private static func perMinute(_ count: Int, _ scale: Double) -> String {
        Int((Double(count) * scale).rounded()).formatted()
    }

    private func failed(_ name: String, _ why: String) -> [BenchResult] {
        [failure(name, why)]
    }

    private func failure(_ name: String, _ why: String) -> BenchResult {
        .failed(Self.section, name, why)
    }
}

/// The floor under a listener's line: `cat FIFO` writing to a pipe that the bench
/// reads, the same two processes and hops as menud's listener, without menud.
final class CatFloor {
    private let pid: pid_t
    private let writer: Int32
    private var output: SocketLines

    init?(fifo: String) {
        var ends: [Int32] = [0, 0]
        guard mkfifo(fifo, 0o600) == 0, pipe(&ends) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let arguments: [String] = ["/bin/cat", fifo]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/cat", &actions, nil, argv, environ)
        close(ends[1])
        guard rc == 0 else {
            close(ends[0])
            return nil
        }
        self.pid = pid
        writer = open(fifo, O_RDWR)
        output = SocketLines(fd: ends[0])
    }

    /// Nanoseconds from writing `line` to the FIFO to reading it back; nil on an error.
    func roundTrip(_ line: String) -> Double? {
        let bytes = Array((line + "\n").utf8)
        let written = SocketLoad.now()
        guard write(writer, bytes, bytes.count) == bytes.count, output.wait(for: { $0 == line }) else {
            return nil
        }
        return Double(SocketLoad.now() - written)
    }

    func stop() {
        close(writer)
        close(output.fd)
        ChildProcess.stop(pid)
    }
}

/// Writes a line to the listener's FIFO every 1/`perSecond` s, on a thread of its
/// own, while ``flooding``; it wakes as often when not, so that only the lines
/// differ between the two.
final class Flood: @unchecked Sendable {
    private let fd: Int32
    private let period: Int
    private let lock = NSLock()
    private var running = true
    private var on = false
    private var lines = 0
    private var floodedNanos: UInt64 = 0
    private let done = DispatchSemaphore(value: 0)
    private var stopped = false

    /// With `block`, a flooding turn writes it whole (the pipe holds the writer
    /// until the daemon reads): as fast as the daemon takes lines, as `yes` would.
    private let block: [UInt8]?

    init(fd: Int32, perSecond: Int, block: [UInt8]? = nil) {
        self.fd = fd
        period = 1_000_000_000 / perSecond
        self.block = block
    }

    var flooding: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }

    func start() {
        Thread { [self] in
            defer { done.signal() }
            var next = timespec()
            clock_gettime(CLOCK_MONOTONIC, &next)
            var n = 0
            var last = SocketLoad.now()
            while true {
                let (running, on) = lock.withLock { (self.running, self.on) }
                guard running else { return }
                let now = SocketLoad.now()
                if on, let block {
                    let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    let after = SocketLoad.now()
                    lock.withLock {
                        lines += max(0, written) / 3
                        floodedNanos += after - last
                    }
                    last = after
                    continue
                }
                if on {
                    n += 1
                    let bytes = Array("flood-\(n)\n".utf8)
                    _ = write(fd, bytes, bytes.count)
                    lock.withLock {
                        lines += 1
                        floodedNanos += now - last
                    }
                }
                last = now
                next.tv_nsec += period
                if next.tv_nsec >= 1_000_000_000 {
                    next.tv_nsec -= 1_000_000_000
                    next.tv_sec += 1
                }
                // Behind by more than a few lines (the machine was busy): start again
                // from now rather than writing a burst to catch up.
                let due = UInt64(next.tv_sec) * 1_000_000_000 + UInt64(next.tv_nsec)
                if due + 5 * UInt64(period) < SocketLoad.now() {
                    clock_gettime(CLOCK_MONOTONIC, &next)
                }
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil) == EINTR {}
            }
        }.start()
    }

    /// Stops the thread, once, and says how many lines it wrote over how many seconds
    /// of flooding.
    @discardableResult
    func stop() -> (lines: Int, seconds: Double) {
        let wasRunning = lock.withLock {
            let was = running
            running = false
            return was
        }
        if wasRunning { done.wait() }
        return lock.withLock { (lines, Double(floodedNanos) / 1e9) }
    }
}
