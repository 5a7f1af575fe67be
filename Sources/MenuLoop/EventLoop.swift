import CUV

/// One libuv loop: menud serves its sockets, timers, signals, children and config
/// watch on one of these, on one thread. Not thread-safe: everything here is used on
/// the thread that runs the loop; ``BackgroundWork`` runs jobs on a pool of threads and
/// hands their results back here.
///
/// It also owns the buffer every ``SocketConnection`` and ``PipeReader`` of the
/// loop reads into: a read is handed to its callback and done with before the next
/// one starts, so one buffer serves them all and no read allocates.
public final class EventLoop {
    let raw: UnsafeMutablePointer<uv_loop_t>
    private let readBuffer: UnsafeMutableRawPointer
    private var closed = false
    /// Made at the first background job.
    private var channel: WorkChannel?

    /// The size of the shared read buffer, and so the most one read delivers.
    public static let readBufferSize = 64 * 1024

    public init() throws(UVError) {
        let raw = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let rc = uv_loop_init(raw)
        guard rc == 0 else {
            raw.deallocate()
            throw UVError(rc)
        }
        self.raw = raw
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        raw.pointee.data = readBuffer
    }

    /// Runs until ``stop()`` is called or no active handle is left; the close
    /// callbacks of handles closed meanwhile have all run when it returns normally.
    public func run() {
        uv_run(raw, UV_RUN_DEFAULT)
    }

    /// Runs one iteration without waiting for anything: what is ready runs, and so do
    /// the close callbacks of the handles closed since. A test's loop that is never
    /// run calls it after closing its parts, so that no handle keeps them alive.
    public func runOnce() {
        uv_run(raw, UV_RUN_NOWAIT)
    }

    /// Makes ``run()`` return at the end of the current iteration.
    public func stop() {
        uv_stop(raw)
    }

    /// Where this loop's background jobs come back, made at the first.
    func workChannel() throws(UVError) -> WorkChannel {
        if let channel { return channel }
        let made = try WorkChannel(loop: self)
        channel = made
        return made
    }

    /// The loop's clock in milliseconds, as of the start of the current iteration.
    public var now: UInt64 { uv_now(raw) }

    /// The types of the handles that are still open (`timer`, `pipe`, …), for the
    /// message of a test that finds one left over.
    public var openHandles: [String] {
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { names in
            uv_walk(
                raw,
                { handle, names in
                    guard let handle, let names else { return }
                    let name = String(cString: uv_handle_type_name(handle.pointee.type))
                    names.assumingMemoryBound(to: [String].self).pointee.append(name)
                }, names)
        }
        return names
    }

    /// Releases the loop. Fails with `EBUSY` while a handle is open: a test calls it
    /// after the loop ran to completion to prove no handle was leaked.
    public func close() throws(UVError) {
        guard !closed else { return }
        let rc = uv_loop_close(raw)
        guard rc == 0 else { throw UVError(rc) }
        closed = true
    }

    deinit {
        if !closed {
            // Whatever is still open is closed, and its close callback run, so that
            // no owner or handle memory outlives the loop.
            uv_walk(raw, { handle, _ in if let handle { closeHandle(handle) } }, nil)
            uv_run(raw, UV_RUN_DEFAULT)
            closed = uv_loop_close(raw) == 0
        }
        readBuffer.deallocate()
        // A loop that still cannot close is left allocated rather than freed under
        // handles that point into it.
        if closed { raw.deallocate() }
    }
}
