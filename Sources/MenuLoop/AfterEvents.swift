import CUV

/// Runs a closure once per turn of the loop, after every event of the turn has been
/// handled and before the loop waits again (`uv_check`). menud writes there the
/// replies its clients' reads gathered, one write per client, as redis writes its
/// clients' replies before it sleeps (`beforeSleep`) and mpd flushes its clients'
/// output when its loop is idle.
///
/// It never keeps the loop running by itself: a loop with nothing else to wait for
/// ends, started or not.
public final class AfterEvents: LoopHandle {
    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_check_t>?
    /// Called after the events of each turn while started; dropped when closed.
    /// Unchecked for exclusive access, as ``SocketConnection``'s hot properties are:
    /// it is read on every turn, on the loop's thread only.
    @exclusivity(unchecked) public var onRun: (() -> Void)?

    public init(loop: EventLoop) {
        handle = try! allocateHandle(uv_check_t.self) { uv_check_init(loop.raw, $0) }
        uv_unref(asHandle(handle!))
    }

    public func start() {
        guard let handle, uv_is_closing(asHandle(handle)) == 0 else { return }
        uv_check_start(handle) { owner(of: $0, as: AfterEvents.self).onRun?() }
    }

    public func stop() {
        if let handle { uv_check_stop(handle) }
    }

    /// Stops it for good and releases it.
    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onRun = nil
    }
}
