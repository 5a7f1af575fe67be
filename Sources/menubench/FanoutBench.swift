import Glibc

/// Section 5: how long after a `toggle` is answered the last of 100 subscribers has
/// its whole event group, which is what a bar sees between a click and a redraw.
struct FanoutBench {
    var socketPath: String
    var subscribers = 100
    var rounds = 300

    func run() -> [BenchResult] {
        var readers: [SocketLines] = []
        defer { for r in readers { close(r.fd) } }
        for _ in 0..<subscribers {
            guard let fd = SocketLoad.connect(socketPath) else { return failed("could not connect") }
            var r = SocketLines(fd: fd)
            _ = r.wait { $0.hasPrefix("OK MENUD") }
            write(fd, "subscribe expansion\n", 20)
            guard r.wait(for: { $0 == "OK" }) else { return failed("subscribe refused") }
            readers.append(r)
        }
        guard let controlFD = SocketLoad.connect(socketPath) else { return failed("could not connect") }
        defer { close(controlFD) }
        var control = SocketLines(fd: controlFD)
        _ = control.wait { $0.hasPrefix("OK MENUD") }
        var latencies: [UInt64] = []
        for _ in 0..<rounds {
            write(controlFD, "toggle power\n", 13)
            guard control.wait(for: { $0 == "OK" || $0.hasPrefix("ERR") }) else { return failed("no reply") }
            let answered = SocketLoad.now()
            var waiting = Set(readers.indices)
            var polled = readers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            while !waiting.isEmpty {
                guard poll(&polled, nfds_t(polled.count), 5000) > 0 else {
                    return failed("events did not arrive")
                }
                for k in polled.indices where polled[k].revents != 0 {
                    guard let got = readers[k].lines() else { return failed("a subscriber was dropped") }
                    if got.contains(where: { $0.hasPrefix("event\t") && $0.hasSuffix("\tend") }) {
                        waiting.remove(k)
                        polled[k].fd = -1
                    }
                }
            }
            let last = SocketLoad.now()
            latencies.append(last > answered ? last - answered : 0)
        }
        latencies.sort()
        let p50 = Double(latencies[latencies.count / 2])
        let p99 = Double(latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
        return [
            BenchResult(
                section: "fan-out",
                name:
                    "toggle reply → last of \(subscribers) subscribers has its event group (\(rounds) toggles)",
                value: "p50 \(BenchResult.micros(p50)), p99 \(BenchResult.micros(p99))",
                target: "p99 ≤ 2 ms", met: p99 <= 2_000_000)
        ]
    }

    private func failed(_ why: String) -> [BenchResult] {
        [.failed("fan-out", "\(subscribers) subscribers", why)]
    }
}
