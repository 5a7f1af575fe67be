import CUV

/// Runs closures on the loop's thread, posted from any thread (`uv_async`). menud
/// itself runs on one thread; this is for a helper thread that must hand a result to
/// the loop. While open it keeps the loop running: close it when done.
public final class LoopInbox: LoopHandle, @unchecked Sendable {
    // The queue and `closed` are guarded by `lock`; `handle` is used by `post` only
    // while `closed` is false under the lock, and closed on the loop thread.
    private var handle: UnsafeMutablePointer<uv_async_t>!
    private let lock: UnsafeMutablePointer<uv_mutex_t>
    private var queue: [@Sendable () -> Void] = []
    private var closed = false

    public init(loop: EventLoop) throws(UVError) {
        lock = .allocate(capacity: 1)
        uv_mutex_init(lock)
        handle = try allocateHandle(uv_async_t.self) { handle in
            uv_async_init(loop.raw, handle) { handle in
                owner(of: handle, as: LoopInbox.self).deliver()
            }
        }
    }

    /// Queues `work` to run on the loop's thread, in the order posted. Safe from any
    /// thread; returns false, and drops `work`, once the inbox is closed.
    @discardableResult
    public func post(_ work: @escaping @Sendable () -> Void) -> Bool {
        uv_mutex_lock(lock)
        defer { uv_mutex_unlock(lock) }
        guard !closed else { return false }
        queue.append(work)
        uv_async_send(handle)
        return true
    }

    /// Stops taking work; work already queued and not yet run is dropped. On the
    /// loop's thread.
    public func close() {
        uv_mutex_lock(lock)
        let wasClosed = closed
        closed = true
        queue = []
        uv_mutex_unlock(lock)
        if !wasClosed { closeHandle(handle) }
    }

    private func deliver() {
        uv_mutex_lock(lock)
        let work = queue
        queue = []
        uv_mutex_unlock(lock)
        for item in work { item() }
    }

    func handleClosed() {
        uv_mutex_lock(lock)
        closed = true
        queue = []
        uv_mutex_unlock(lock)
    }

    deinit {
        uv_mutex_destroy(lock)
        lock.deallocate()
    }
}
