import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// One byte stream on the loop (a `uv_pipe_t`: a Unix socket connection, or a pipe
/// from a child): menud's client connections and the output of its commands.
///
/// Reading can be stopped and started again, which is how a client whose replies are
/// not read is no longer served (back-pressure). The end of the peer's input is an
/// event of its own, after which writing still works (half-close). Writes that the
/// socket does not take at once wait in libuv's write queue; ``queuedBytes`` counts
/// them, for the stalled-reader and subscriber bounds, and ``onDrain`` says when the
/// queue has emptied. Like redis's connections it has explicit states: open, shutting
/// down (pending writes go out, then the sending side is shut and it closes), closing
/// and closed. An error closes it.
public final class StreamConnection: LoopHandle {
    public enum State: Sendable, Equatable {
        case open
        /// ``shutdown()`` was called: pending writes go out, then it closes.
        case shuttingDown
        case closing
        case closed
    }

    // The properties read on every write skip the runtime's exclusivity checks (a call
    // per access in this module's release build, which has them): they are only ever
    // touched on the loop's thread, and never during an access of their own.
    @exclusivity(unchecked) public private(set) var state = State.open
    /// Whether it is reading: between ``startReading()`` and ``stopReading()``, the
    /// end of input or closing.
    public private(set) var isReading = false
    /// Whether the peer ended its input (shut its sending side, or closed).
    public private(set) var inputEnded = false

    /// The bytes of one read. They are the loop's shared read buffer, valid only
    /// during the call: copy what must be kept.
    @exclusivity(unchecked) public var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// The peer will send nothing more; reading has stopped, writing still works.
    public var onEndOfInput: (() -> Void)?
    /// A read or write failed (the peer is gone); the connection is closing.
    public var onError: ((UVError) -> Void)?
    /// Every queued write has been handed to the kernel, after some had to wait.
    public var onDrain: (() -> Void)?
    /// The connection is closed; called once, after which every closure is dropped.
    public var onClose: (() -> Void)?

    @exclusivity(unchecked) private var handle: UnsafeMutablePointer<uv_pipe_t>!
    /// Write requests handed to libuv whose callback has not come yet.
    @exclusivity(unchecked) private var pendingWrites = 0

    /// Takes over `fd`, a connected stream socket or a pipe; closing the connection
    /// closes it. When this throws, `fd` is still the caller's.
    public convenience init(loop: EventLoop, adopting fd: Int32) throws(UVError) {
        try self.init(loop: loop.raw, adopting: fd)
    }

    init(loop: UnsafeMutablePointer<uv_loop_t>, adopting fd: Int32) throws(UVError) {
        handle = try allocateHandle(uv_pipe_t.self) { uv_pipe_init(loop, $0, 0) }
        let rc = uv_pipe_open(handle, fd)
        guard rc == 0 else {
            close()
            throw UVError(rc)
        }
    }

    /// A pipe not yet connected to anything, for `uv_spawn` to connect to a child.
    init(unconnectedOn loop: UnsafeMutablePointer<uv_loop_t>) {
        handle = try! allocateHandle(uv_pipe_t.self) { uv_pipe_init(loop, $0, 0) }
    }

    var stream: UnsafeMutablePointer<uv_stream_t> { asStream(handle) }

    // MARK: reading

    /// Starts (or resumes) delivering reads to ``onRead``. Does nothing once the
    /// input ended or the connection is no longer open.
    public func startReading() {
        guard state == .open, !isReading, !inputEnded else { return }
        let rc = uv_read_start(
            stream,
            { handle, _, buffer in
                // The loop's read buffer (EventLoop.init put it in the loop's data).
                let loop = handle!.pointee.loop!
                buffer!.pointee = uv_buf_init(
                    loop.pointee.data.assumingMemoryBound(to: CChar.self), UInt32(EventLoop.readBufferSize))
            },
            { stream, count, buffer in
                owner(of: stream, as: StreamConnection.self).received(count, buffer!.pointee)
            })
        if rc < 0 { fail(UVError(rc)) } else { isReading = true }
    }

    /// Stops delivering reads; the peer's bytes wait in the kernel, and once its
    /// buffer is full the peer's writes block.
    public func stopReading() {
        guard isReading else { return }
        uv_read_stop(stream)
        isReading = false
    }

    private func received(_ count: Int, _ buffer: uv_buf_t) {
        if count > 0 {
            onRead?(UnsafeRawBufferPointer(start: buffer.base, count: count))
        } else if count == Int(UV_EOF.rawValue) {
            // libuv has stopped reading.
            isReading = false
            inputEnded = true
            onEndOfInput?()
        } else if count < 0 {
            fail(UVError(count))
        }
    }

    // MARK: writing

    /// The bytes written but not yet taken by the kernel
    /// (`uv_stream_get_write_queue_size`).
    public var queuedBytes: Int {
        state == .closed ? 0 : uv_stream_get_write_queue_size(stream)
    }

    /// Sends `bytes` after whatever is queued. What the socket takes at once is
    /// written straight from `bytes` (`uv_try_write`); only the rest is copied, to
    /// wait in the queue. Dropped unless the connection is open.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard state == .open, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var sent = 0
        if pendingWrites == 0 {
            var buffer = uv_buf_init(
                UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), UInt32(bytes.count))
            let rc = uv_try_write(stream, &buffer, 1)
            if rc == bytes.count { return }
            if rc >= 0 {
                sent = Int(rc)
            } else if rc != UV_EAGAIN.rawValue {
                fail(UVError(rc))
                return
            }
        }
        enqueue(UnsafeRawBufferPointer(rebasing: bytes[sent...]))
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Hands a copy of `bytes` to libuv: one allocation holds the request and the
    /// bytes, freed in the write callback.
    private func enqueue(_ bytes: UnsafeRawBufferPointer) {
        let header = (MemoryLayout<uv_write_t>.stride + 15) & ~15
        let block = UnsafeMutableRawPointer.allocate(byteCount: header + bytes.count, alignment: 16)
        let request = block.bindMemory(to: uv_write_t.self, capacity: 1)
        let copy = block + header
        copy.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        var buffer = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let rc = uv_write(request, stream, &buffer, 1) { request, status in
            let connection = owner(of: request!.pointee.handle, as: StreamConnection.self)
            UnsafeMutableRawPointer(request!).deallocate()
            connection.wrote(status)
        }
        guard rc == 0 else {
            block.deallocate()
            fail(UVError(rc))
            return
        }
        pendingWrites += 1
    }

    private func wrote(_ status: Int32) {
        pendingWrites -= 1
        if status < 0 {
            fail(UVError(status))
        } else if pendingWrites == 0, state == .open {
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
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        let rc = uv_shutdown(request, stream) { request, _ in
            let connection = owner(of: request!.pointee.handle, as: StreamConnection.self)
            request!.deallocate()
            connection.close()
        }
        if rc < 0 {
            request.deallocate()
            close()
        }
    }

    /// Closes now; writes still queued are dropped.
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
        state = .closed
        let closed = onClose
        onRead = nil
        onEndOfInput = nil
        onError = nil
        onDrain = nil
        onClose = nil
        closed?()
    }

    // MARK: peer

    /// The process at the other end of a Unix socket, as the kernel saw it connect
    /// (`SO_PEERCRED`): menud serves only its own user.
    public func peerCredentials() throws(UVError) -> PeerCredentials {
        guard state != .closing, state != .closed else { throw UVError(UV_EBADF.rawValue) }
        var fd: uv_os_fd_t = -1
        let rc = uv_fileno(asHandle(handle), &fd)
        guard rc == 0 else { throw UVError(rc) }
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw UVError(-errno)
        }
        return credentials
    }
}
