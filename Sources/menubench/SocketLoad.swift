import Glibc
import MenuClient

/// A closed-loop load generator over Unix sockets, written here so that menud and
/// redis are driven by exactly the same code: `connections` sockets, each keeping
/// `pipeline` requests in flight, one thread polling them all.
struct SocketLoad {
    /// How a server's replies end, so the generator can count them without parsing
    /// the protocol in full.
    enum Dialect {
        /// menud: a reply ends with a line `OK` or `ERR …`; the greeting is skipped.
        case menud
        /// redis inline commands: every reply to PING is one `+PONG` line.
        case redis

        func endsReply(_ line: ArraySlice<UInt8>) -> Bool {
            switch self {
            case .menud:
                return line.elementsEqual("OK".utf8) || line.starts(with: "ERR ".utf8)
            case .redis:
                return line.first == UInt8(ascii: "+") || line.first == UInt8(ascii: "-")
            }
        }
    }

    struct Outcome {
        var requests: Int
        var seconds: Double
        var p50: Double
        var p99: Double
        var errors: Int
        var perSecond: Double { Double(requests) / seconds }
        /// Throughput and latency, as the table shows them.
        var summary: String {
            "\(Int(perSecond)) req/s, p50 \(BenchResult.micros(p50)), p99 \(BenchResult.micros(p99))"
        }
    }

    /// What menud is sent, in turn: a read and a change of the built-in menu, the two
    /// requests a status bar sends most.
    static let menudRequests = [Array("get display/volume\n".utf8), Array("toggle power\n".utf8)]
    /// What redis is sent: its cheapest command, inline.
    static let redisRequests = [Array("PING\r\n".utf8)]

    var socketPath: String
    var dialect: Dialect
    var connections: Int
    var pipeline: Int
    /// Requests sent in turn, each a full line with its terminator.
    var requests: [[UInt8]]
    var seconds: Double

    private struct Connection {
        var fd: Int32
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
            conns.append(Connection(fd: fd, next: k))
            polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(1 << 20)
        var errors = 0
        let start = SocketLoad.now()
        let deadline = start + UInt64(seconds * 1e9)
        for k in conns.indices { send(&conns[k], count: pipeline) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var stopping = false
        var inFlight = connections * pipeline
        while inFlight > 0 {
            let n = poll(&polled, nfds_t(polled.count), 1000)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            let now = SocketLoad.now()
            if now >= deadline { stopping = true }
            for k in polled.indices where polled[k].revents != 0 {
                let got = read(conns[k].fd, &buffer, buffer.count)
                guard got > 0 else {
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
                    if dialect.endsReply(line) {
                        replies += 1
                        if line.starts(with: "ERR ".utf8) || line.first == UInt8(ascii: "-") { errors += 1 }
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
                    send(&conns[k], count: replies)
                    inFlight += replies
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
            requests: latencies.count, seconds: elapsed, p50: pct(0.5), p99: pct(0.99), errors: errors)
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
