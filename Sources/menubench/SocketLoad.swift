import Glibc
import MenuClient
import MenuSystem

/// A closed-loop load generator over Unix sockets, written here so that menud and
/// its peers are driven by exactly the same code: `connections` sockets, each
/// keeping `pipeline` requests in flight, one thread polling them all, until
/// `maxRequests` have been sent or `seconds` have passed.
struct SocketLoad {
    struct Outcome {
        var requests: Int
        var seconds: Double
        var p50: Double
        var p99: Double
        var errors: Int
        /// Connections the server closed during the run.
        var dropped: Int
        var perSecond: Double { Double(requests) / seconds }
        /// Throughput and latency, as the table shows them.
        var summary: String {
            var text =
                "\(Int(perSecond)) req/s, p50 \(BenchResult.micros(p50)), p99 \(BenchResult.micros(p99))"
            if errors > 0 { text += ", \(errors) errors" }
            if dropped > 0 { text += ", \(dropped) connections dropped" }
            return text
        }
    }

    /// What menud is sent, in turn: a read and a change of the built-in menu, the two
    /// requests a status bar sends most.
    static let menudRequests = [Array("get display/volume\n".utf8), Array("toggle power\n".utf8)]
    /// What redis is sent: its cheapest command, inline.
    static let redisRequests = [Array("PING\r\n".utf8)]
    /// What mpd is sent: its cheapest command.
    static let mpdRequests = [Array("ping\n".utf8)]

    var socketPath: String
    var dialect: ReplyFraming.Dialect
    var connections: Int
    var pipeline: Int
    /// Requests sent in turn, each a full line with its terminator.
    var requests: [[UInt8]]
    var seconds: Double
    var maxRequests = Int.max

    private struct Connection {
        var fd: Int32
        var framing: ReplyFraming
        var sentAt: [UInt64] = []
        var head = 0
        var pending: [UInt8] = []
        var next = 0
    }

    func run() -> Outcome? {
        var conns: [Connection] = []
        defer { for c in conns { close(c.fd) } }
        var polled: [pollfd] = []
        for k in 0..<connections {
            guard let fd = SocketLoad.connect(socketPath) else { return nil }
            conns.append(Connection(fd: fd, framing: ReplyFraming(dialect), next: k))
            polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(1 << 20)
        var errors = 0
        var dropped = 0
        let start = SocketLoad.now()
        let deadline = start + UInt64(seconds * 1e9)
        var unsent = maxRequests
        for k in conns.indices {
            let n = min(pipeline, unsent)
            send(&conns[k], count: n)
            unsent -= n
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var stopping = false
        var inFlight = maxRequests - unsent
        while inFlight > 0 {
            let n = poll(&polled, nfds_t(polled.count), 1000)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            let now = SocketLoad.now()
            if now >= deadline { stopping = true }
            for k in polled.indices where polled[k].revents != 0 {
                let got = read(conns[k].fd, &buffer, buffer.count)
                guard got > 0 else {
                    dropped += 1
                    inFlight -= conns[k].sentAt.count - conns[k].head
                    polled[k].fd = -1
                    conns[k].head = conns[k].sentAt.count
                    continue
                }
                conns[k].pending += buffer[0..<got]
                var replies = 0
                var lineStart = 0
                let bytes = conns[k].pending
                for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                    var line = bytes[lineStart..<i]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    if let end = conns[k].framing.end(at: line) {
                        replies += 1
                        if end == .error { errors += 1 }
                    }
                    lineStart = i + 1
                }
                conns[k].pending.removeFirst(lineStart)
                for _ in 0..<replies {
                    latencies.append(now - conns[k].sentAt[conns[k].head])
                    conns[k].head += 1
                }
                inFlight -= replies
                if !stopping {
                    let n = min(replies, unsent)
                    send(&conns[k], count: n)
                    unsent -= n
                    inFlight += n
                }
            }
        }
        let elapsed = Double(SocketLoad.now() - start) / 1e9
        latencies.sort()
        guard !latencies.isEmpty else { return nil }
        func pct(_ p: Double) -> Double {
            Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))])
        }
        return Outcome(
            requests: latencies.count, seconds: elapsed, p50: pct(0.5), p99: pct(0.99), errors: errors,
            dropped: dropped)
    }

    private func send(_ c: inout Connection, count: Int) {
        guard count > 0 else { return }
        var out: [UInt8] = []
        let t = SocketLoad.now()
        for _ in 0..<count {
            out += requests[c.next % requests.count]
            c.next += 1
            c.sentAt.append(t)
        }
        if c.head > 4096 {
            c.sentAt.removeFirst(c.head)
            c.head = 0
        }
        var off = 0
        while off < out.count {
            let w = out[off...].withUnsafeBytes { Glibc.write(c.fd, $0.baseAddress, $0.count) }
            if w < 0 && errno == EINTR { continue }
            guard w > 0 else { return }
            off += w
        }
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func connect(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard UnixSocketAddress.with(path, { Glibc.connect(fd, $0, $1) }) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
