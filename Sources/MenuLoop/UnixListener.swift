import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// A listening Unix socket that hands each accepted client over as a
/// ``SocketConnection``: menud's socket.
///
/// When `accept` fails for want of resources (EMFILE, ENFILE, ENOBUFS, ENOMEM) the
/// listener stops watching the socket for ``backoff`` and reports the error; the
/// clients waiting meanwhile stay in the backlog, and connected clients are not
/// affected. libuv's own `uv_listen` cannot do that: on EMFILE it accepts and closes
/// the waiting clients (its "EMFILE trick") without a word, and it retries other
/// errors at once. So the socket is libc's and the loop polls it (`uv_poll`).
///
/// Closing the listener closes the socket; the socket file stays for its owner to
/// remove.
public final class UnixListener: LoopHandle {
    public let path: String
    /// How long accepting pauses after an accept error.
    public let backoff: Duration
    /// Each accepted client, not reading yet; closed at once if this is not set.
    public var onConnection: ((SocketConnection) -> Void)?
    /// An accept error, after which accepting pauses for ``backoff``.
    public var onAcceptError: ((UVError) -> Void)?
    /// Between ``startAccepting()`` and ``stopAccepting()`` or ``close()``, whether
    /// or not paused by a back-off.
    public private(set) var isAccepting = false
    /// Whether accepting is paused after an error.
    public private(set) var isBackingOff = false

    private var handle: UnsafeMutablePointer<uv_poll_t>!
    private let fd: Int32
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private let resumeTimer: LoopTimer
    private var closing = false

    /// Binds a socket at `path`, which must not exist, and listens with room for
    /// `backlog` clients waiting to be accepted. Call ``startAccepting()`` to serve.
    public init(loop: EventLoop, path: String, backlog: Int32 = 256, backoff: Duration = .milliseconds(100))
        throws(UVError)
    {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw UVError(-ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UVError(-errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let error = UVError(-errno)
            Glibc.close(fd)
            throw error
        }
        self.path = path
        self.backoff = backoff
        self.fd = fd
        self.loop = loop.raw
        resumeTimer = LoopTimer(loop: loop)
        do {
            // uv_poll_init makes the socket non-blocking.
            handle = try allocateHandle(uv_poll_t.self) { uv_poll_init(loop.raw, $0, fd) }
        } catch {
            resumeTimer.close()
            Glibc.close(fd)
            throw error
        }
        resumeTimer.onFire = { [weak self] in self?.resume() }
    }

    public func startAccepting() {
        guard !closing, !isAccepting else { return }
        isAccepting = true
        if !isBackingOff { watch() }
    }

    /// Leaves new clients waiting in the backlog.
    public func stopAccepting() {
        guard isAccepting else { return }
        isAccepting = false
        uv_poll_stop(handle)
    }

    /// Stops accepting and closes the socket.
    public func close() {
        guard !closing else { return }
        closing = true
        isAccepting = false
        resumeTimer.close()
        closeHandle(handle)
    }

    private func watch() {
        let rc = uv_poll_start(handle, Int32(UV_READABLE.rawValue)) { handle, status, _ in
            owner(of: handle, as: UnixListener.self).readable(status)
        }
        if rc < 0 { backOff(UVError(rc)) }
    }

    private func readable(_ status: Int32) {
        guard status >= 0 else { return backOff(UVError(status)) }
        while isAccepting, !isBackingOff {
            // Glibc hides accept4 from Swift. Close-on-exec is set before the loop could
            // start a child (children are started on this thread); libuv makes the
            // socket non-blocking.
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                // The client left before it was accepted, or a signal came.
                case ECONNABORTED, EINTR: continue
                case let error: return backOff(UVError(-error))
                }
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let connection: SocketConnection
            do throws(UVError) {
                connection = try SocketConnection(loop: loop, adopting: client)
            } catch {
                Glibc.close(client)
                return backOff(error)
            }
            if let onConnection { onConnection(connection) } else { connection.close() }
        }
    }

    private func backOff(_ error: UVError) {
        isBackingOff = true
        uv_poll_stop(handle)
        resumeTimer.start(after: backoff)
        onAcceptError?(error)
    }

    private func resume() {
        isBackingOff = false
        if isAccepting, !closing { watch() }
    }

    func handleClosed() {
        closing = true
        isAccepting = false
        Glibc.close(fd)
        onConnection = nil
        onAcceptError = nil
    }
}
