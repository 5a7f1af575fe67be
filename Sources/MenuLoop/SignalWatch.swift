import CUV

/// Delivers a signal on the loop (`uv_signal`): menud's SIGINT and SIGTERM (a
/// graceful stop) and SIGHUP (reload). The callback runs on the loop's thread, not
/// in a signal handler, so it may do anything.
public final class SignalWatch: LoopHandle {
    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_signal_t>?
    /// Called with the signal's number each time it arrives; dropped on close.
    public var onSignal: ((Int32) -> Void)?

    /// Watches `signal` from now on, until ``close()``.
    public init(loop: EventLoop, signal: Int32) throws(UVError) {
        let handle = try allocateHandle(uv_signal_t.self) { uv_signal_init(loop.raw, $0) }
        self.handle = handle
        let rc = uv_signal_start(
            handle, { handle, signal in owner(of: handle, as: SignalWatch.self).onSignal?(signal) }, signal)
        guard rc == 0 else {
            close()
            throw UVError(rc)
        }
    }

    /// Stops watching; the signal gets its default disposition back when no other
    /// watch of it is left.
    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onSignal = nil
    }
}
