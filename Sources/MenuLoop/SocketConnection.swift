import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// One client of a listening Unix socket: menud's connections. The loop tells when
/// the socket is ready (`uv_poll`); the bytes move by `recv` and `send` here, with a
/// write queue of its own, as redis's `networking.c` and mpd do.
///
/// Not a libuv stream (as ``PipeReader``, which carries children's output, is): a
/// stream reads and writes a socket with `read` and `write`, which pass through the
/// file layer, and each request costs one of each. `recv` and `send` go to the
/// socket directly, and the whole path has fewer steps.
///
/// Reading can be stopped and started again,
/// for back-pressure. The end of the peer's input is an event of its own, after which
/// writing still works (half-close). Writes that the socket does not take at once
/// wait in the queue: ``queuedBytes`` counts them, and ``onDrain`` says when it has
/// emptied. Its states are explicit: open, shutting down (the queue goes out, then
/// the sending side is shut and it closes), closing and closed. An error closes it.
public final class SocketConnection: LoopHandle {
    public enum State: Sendable, Equatable {
        case open
        /// ``shutdown()`` was called: the queue goes out, then it closes.
        case shuttingDown
        case closing
        case closed
    }

    // The properties read on every read, write and queuedBytes skip the runtime's
    // exclusivity checks (a call of about 60 instructions per access in this module's
    // release build, which has them): they are only ever touched on the loop's
    // thread, and never during an access of their own.
    @exclusivity(unchecked) public private(set) var state = State.open
    /// Whether it is reading: between ``startReading()`` and ``stopReading()``, the
    /// end of input or closing.
    @exclusivity(unchecked) public private(set) var isReading = false
    /// Whether the peer ended its input (shut its sending side, or closed).
    public private(set) var inputEnded = false

    /// The bytes of one read. They are the loop's shared read buffer, valid only
    /// during the call: copy what must be kept.
    @exclusivity(unchecked) public var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// The peer will send nothing more; reading has stopped, writing still works.
    public var onEndOfInput: (() -> Void)?
    /// A read or write failed (the peer is gone); the connection is closing.
    public var onError: ((UVError) -> Void)?
    /// Every queued byte has been handed to the kernel, after some had to wait.
    public var onDrain: (() -> Void)?
    /// The connection is closed; called once, after which every closure is dropped.
    public var onClose: (() -> Void)?

    @exclusivity(unchecked) private var handle: UnsafeMutablePointer<uv_poll_t>!
    private let descriptor: Int32
    /// The bytes the socket has not taken, from ``queueStart`` on.
    @exclusivity(unchecked) private var queue: [UInt8] = []
    @exclusivity(unchecked) private var queueStart = 0
    /// What the loop watches the socket for now (`UV_READABLE`, `UV_WRITABLE`).
    private var watching: Int32 = 0

    private static let readable = Int32(UV_READABLE.rawValue)
    private static let writable = Int32(UV_WRITABLE.rawValue)
    /// No SIGPIPE for a peer that has gone (the write fails with EPIPE instead), and
    /// never a wait, whatever the descriptor's own mode.
    private static let sendFlags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)

    /// Takes over `fd`, a connected stream socket; closing the connection closes it.
    /// When this throws, `fd` is still the caller's.
    public convenience init(loop: EventLoop, adopting fd: Int32) throws(UVError) {
        try self.init(loop: loop.raw, adopting: fd)
    }

    init(loop: UnsafeMutablePointer<uv_loop_t>, adopting fd: Int32) throws(UVError) {
        descriptor = fd
        // libuv makes the descriptor non-blocking.
        handle = try allocateHandle(uv_poll_t.self) { uv_poll_init_socket(loop, $0, fd) }
    }

    // MARK: reading

    /// Starts (or resumes) delivering reads to ``onRead``. Does nothing once the
    /// input ended or the connection is no longer open.
    public func startReading() {
        guard state == .open, !isReading, !inputEnded else { return }
        isReading = true
        watch()
    }

    /// Stops delivering reads; the peer's bytes wait in the kernel, and once its
    /// buffer is full the peer's writes block.
    public func stopReading() {
        guard isReading else { return }
        isReading = false
        watch()
    }

    /// Makes the loop watch for what is wanted now: reads while reading, and the
    /// socket's room while bytes are queued.
    private func watch() {
        guard state == .open || state == .shuttingDown else { return }
        var events: Int32 = 0
        if isReading { events |= Self.readable }
        if queueStart < queue.count { events |= Self.writable }
        guard events != watching else { return }
        watching = events
        guard events != 0 else {
            uv_poll_stop(handle)
            return
        }
        let rc = uv_poll_start(handle, events) { handle, status, events in
            owner(of: handle, as: SocketConnection.self).ready(status, events)
        }
        if rc < 0 { fail(UVError(rc)) }
    }

    private func ready(_ status: Int32, _ events: Int32) {
        guard status >= 0 else { return fail(UVError(status)) }
        if events & Self.writable != 0 { sendQueue() }
        if events & Self.readable != 0, isReading { receive() }
    }

    private func receive() {
        // The loop's read buffer (EventLoop.init put it in the loop's data).
        let buffer = handle.pointee.loop.pointee.data!
        let count = recv(descriptor, buffer, EventLoop.readBufferSize, 0)
        if count > 0 {
            onRead?(UnsafeRawBufferPointer(start: buffer, count: count))
        } else if count == 0 {
            isReading = false
            inputEnded = true
            watch()
            onEndOfInput?()
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            fail(UVError(-errno))
        }
    }

    // MARK: writing

    /// The bytes written but not yet taken by the kernel.
    public var queuedBytes: Int { queue.count - queueStart }

    /// Sends `bytes` after whatever is queued. What the socket takes at once is sent
    /// straight from `bytes`; only the rest is copied, to wait in the queue. Dropped
    /// unless the connection is open.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard state == .open, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var sent = 0
        if queueStart == queue.count {
            let count = send(descriptor, base, bytes.count, Self.sendFlags)
            if count == bytes.count { return }
            if count >= 0 {
                sent = count
            } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                return fail(UVError(-errno))
            }
        }
        queue.append(contentsOf: bytes[sent...])
        watch()
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Sends what the queue holds, as much as the socket takes.
    private func sendQueue() {
        while queueStart < queue.count {
            let count = queue.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + queueStart, $0.count - queueStart, Self.sendFlags)
            }
            if count > 0 {
                queueStart += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                return fail(UVError(count < 0 ? -errno : Int32(UV_EIO.rawValue)))
            }
        }
        // A queue that grew large for one slow reader is not kept.
        queue.removeAll(keepingCapacity: queue.capacity <= 64 * 1024)
        queueStart = 0
        watch()
        if state == .shuttingDown {
            endSending()
        } else if state == .open {
            onDrain?()
        }
    }

    // MARK: ending

    /// Sends what is queued, then shuts the sending side (the peer reads its end of
    /// input) and closes. Reading stops now.
    public func shutdown() {
        guard state == .open else { return }
        state = .shuttingDown
        stopReading()
        if queueStart == queue.count { endSending() }
    }

    private func endSending() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
        close()
    }

    /// Closes now; bytes still queued are dropped.
    public func close() {
        guard state == .open || state == .shuttingDown else { return }
        state = .closing
        isReading = false
        closeHandle(handle)
    }

    private func fail(_ error: UVError) {
        guard state == .open || state == .shuttingDown else { return }
        onError?(error)
        close()
    }

    func handleClosed() {
        // libuv no longer watches it: the descriptor can go.
        _ = Glibc.close(descriptor)
        state = .closed
        queue = []
        queueStart = 0
        let closed = onClose
        onRead = nil
        onEndOfInput = nil
        onError = nil
        onDrain = nil
        onClose = nil
        closed?()
    }

    // MARK: peer

    /// The process at the other end, as the kernel saw it connect (`SO_PEERCRED`):
    /// menud serves only its own user.
    public func peerCredentials() throws(UVError) -> PeerCredentials {
        guard state != .closing, state != .closed else { throw UVError(UV_EBADF.rawValue) }
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw UVError(-errno)
        }
        return credentials
    }
}
