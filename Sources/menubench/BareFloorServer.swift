import ArgumentParser
import Glibc
import MenuClient
import MenuSystem

/// The loop floor's twin without any event library: one thread, one `poll` over every
/// socket, one read and one write per readable socket, as redis does with epoll. It
/// answers `OK` to every line, like `loop-floor`; the difference between the two is
/// what the loop layer costs per request. (`poll` rather than epoll, which Glibc's
/// module does not export; over fifty sockets it only makes this floor lower.)
///
/// Not a server to ship: no limits, and no back-pressure beyond keeping unsent bytes.
struct BareFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bare-floor",
        abstract: "Serve `OK` to every line on a Unix socket from a bare poll loop, as a baseline.")

    @Option(help: "The socket to listen on.")
    var socket: String

    func run() throws {
        let listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw ExitCode(1) }
        unlink(socket)
        guard UnixSocketAddress.with(socket, { bind(listener, $0, $1) }) == 0, listen(listener, 256) == 0
        else { throw ExitCode(1) }
        var loop = BareFloorLoop(listener: listener)
        loop.run()
    }
}

/// The loop's state: what is polled and, per socket, the bytes it has not taken yet.
private struct BareFloorLoop {
    var polled: [pollfd]
    /// Parallel to `polled`; a socket with bytes owed waits for POLLOUT and reads wait
    /// with it, so replies stay in order.
    var unsent: [[UInt8]]

    init(listener: Int32) {
        polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        unsent = [[]]
    }

    mutating func run() {
        var input = [UInt8](repeating: 0, count: 1 << 16)
        var output: [UInt8] = []
        while true {
            let ready = poll(&polled, nfds_t(polled.count), -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            for k in polled.indices.reversed() where polled[k].revents != 0 {
                let fd = polled[k].fd
                if k == 0 {
                    accept()
                } else if polled[k].revents & Int16(POLLOUT) != 0 {
                    send(k, [])
                } else {
                    let got = read(fd, &input, input.count)
                    if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) {
                        drop(k)
                        continue
                    }
                    guard got > 0 else { continue }
                    output.removeAll(keepingCapacity: true)
                    for byte in input[0..<got] where byte == UInt8(ascii: "\n") {
                        output.append(contentsOf: [UInt8(ascii: "O"), UInt8(ascii: "K"), UInt8(ascii: "\n")])
                    }
                    if !output.isEmpty { send(k, output) }
                }
            }
        }
    }

    private mutating func accept() {
        while true {
            let fd = Glibc.accept(polled[0].fd, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            unsent.append([])
            send(polled.count - 1, Array("OK MENUD 1\n".utf8))
        }
    }

    private mutating func drop(_ k: Int) {
        close(polled[k].fd)
        polled.remove(at: k)
        unsent.remove(at: k)
    }

    /// Writes what socket `k` is owed and then `bytes`.
    private mutating func send(_ k: Int, _ bytes: [UInt8]) {
        let owed = !unsent[k].isEmpty
        let pending = owed ? unsent[k] + bytes : bytes
        // MSG_NOSIGNAL: a client gone before its greeting (the suite's readiness probe)
        // must not end the server with SIGPIPE.
        let wrote = pending.withUnsafeBytes {
            Glibc.send(polled[k].fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if wrote < 0 && errno != EAGAIN && errno != EINTR {
            drop(k)
            return
        }
        let sent = max(wrote, 0)
        unsent[k] = Array(pending[sent...])
        polled[k].events = Int16(unsent[k].isEmpty ? POLLIN : POLLOUT)
    }
}
