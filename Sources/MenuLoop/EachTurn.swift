import CUV

/// Runs a closure once per turn of the loop while started, and keeps the loop from
/// waiting for events meanwhile (`uv_idle`): for work cut into pieces, one piece a
/// turn, between which the loop serves its sockets and timers. Started, it keeps the
/// loop running; stop it when the work is done, and the loop sleeps again.
public final class EachTurn: LoopHandle {
    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_idle_t>?
    /// Called once a turn while started; dropped when closed.
    public var onRun: (() -> Void)?

    public init(loop: EventLoop) {
        handle = try! allocateHandle(uv_idle_t.self) { uv_idle_init(loop.raw, $0) }
    }

    public func start() {
        guard let handle, uv_is_closing(asHandle(handle)) == 0 else { return }
        uv_idle_start(handle) { owner(of: $0, as: EachTurn.self).onRun?() }
    }

    public func stop() {
        if let handle { uv_idle_stop(handle) }
    }

    /// Whether it runs.
    public var isActive: Bool { handle.map { uv_is_active(asHandle($0)) != 0 } ?? false }

    /// Stops it for good and releases it.
    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onRun = nil
    }
}
