import MenuProtocol
import MenuSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking client connection to a Unix stream socket, with line-oriented reads.
/// Plain libc on purpose: menuctl is started once per command from scripts and bars,
/// so it must not pay for an event loop or Foundation at start-up. The daemon's
/// liveness probe and the end-to-end tests' raw clients use the same code.
public final class UnixSocketConnection {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var operation: String
        public var errno: Int32
        public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
        /// Nobody is listening: no socket file, or a file left behind by a dead daemon.
        public var isNotListening: Bool { errno == ENOENT || errno == ECONNREFUSED }
    }

    let fd: Int32
    /// Replies have no line limit: a row's title is as long as the menu makes it.
    private var framer = LineFramer(maximumLineLength: .max)
    /// Lines framed and not read yet, from `head` on.
    private var lines: [String] = []
    private var head = 0
    private var sawEOF = false

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Connects to the socket at `path`.
    public static func connect(path: String) throws(Failure) -> UnixSocketConnection {
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(operation: "socket", errno: errno) }
        let connection = UnixSocketConnection(fd: fd)
        guard let rc = UnixSocketAddress.with(path, { Glibc.connect(fd, $0, $1) }) else {
            throw Failure(operation: "socket path too long", errno: ENAMETOOLONG)
        }
        guard rc == 0 else { throw Failure(operation: "connect", errno: errno) }
        return connection
    }

    /// Makes reads give up after `seconds`, so a test against a hung daemon fails
    /// instead of hanging.
    public func setReceiveTimeout(seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes a send that cannot go on give up after `seconds` (with EAGAIN), so a
    /// test can tell a daemon that stopped reading from one that is slow.
    public func setSendTimeout(seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `text`.
    public func send(_ text: String) throws(Failure) {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws(Failure) {
        if let error = WriteAll.write(fd, bytes, toSocket: true) {
            throw Failure(operation: "send", errno: error)
        }
    }

    /// Tells the daemon no more requests follow; it closes after its last reply.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line without its `\n` (or `\r\n`), or nil at end of stream.
    public func readLine() throws(Failure) -> String? {
        while head == lines.count {
            if sawEOF { return nil }
            try fill()
        }
        defer {
            head += 1
            if head == lines.count {
                lines.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        return lines[head]
    }

    /// How many bytes the other side has sent that are not read yet: what the kernel
    /// holds for this socket plus what is buffered here. A client that stops reading
    /// learns from it when the other side has stopped writing to it.
    public var unreadByteCount: Int {
        var queued: Int32 = 0
        if ioctl(fd, UInt(FIONREAD), &queued) < 0 { queued = 0 }
        return Int(queued) + framer.pendingByteCount + lines[head...].reduce(0) { $0 + $1.utf8.count + 1 }
    }

    /// Waits until ``readLine()`` can answer without blocking, unless descriptor
    /// `other` reports a hang-up or an error first: then returns false. A client that
    /// writes what it reads to a pipe learns this way that its reader left while the
    /// daemon is quiet, instead of on its next write, which may never come.
    public func waitForLine(orHangUpOf other: Int32) throws(Failure) -> Bool {
        while !sawEOF && head == lines.count {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: other, events: 0, revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "poll", errno: errno)
            }
            if fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
            if fds[0].revents != 0 { try fill() }
        }
        return true
    }

    /// The connection's descriptor, for an event loop to watch: a client with a loop
    /// of its own (menud-popup's GLib loop) reads when it becomes readable.
    public var descriptor: Int32 { fd }

    /// The lines that have come, without waiting for more: what one read gives, with
    /// any lines already framed. Empty when nothing whole has come; nil once the other
    /// side has closed and every line is taken.
    public func readAvailableLines() throws(Failure) -> [String]? {
        if head == lines.count && !sawEOF { try fill(waiting: false) }
        if head == lines.count && sawEOF { return nil }
        defer {
            lines.removeAll(keepingCapacity: true)
            head = 0
        }
        return Array(lines[head...])
    }

    private func fill(waiting: Bool = true) throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes {
                recv(fd, $0.baseAddress, $0.count, waiting ? 0 : Int32(MSG_DONTWAIT))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if !waiting && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                throw Failure(operation: "receive", errno: errno)
            }
            if n == 0 {
                sawEOF = true
                framer.finish(keep)
            } else {
                chunk.withUnsafeBytes { framer.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n]), keep) }
            }
            return
        }
    }

    private func keep(_ line: LineFramer.Line) {
        if case .bytes(let bytes) = line { lines.append(String(decoding: bytes, as: UTF8.self)) }
    }
}
