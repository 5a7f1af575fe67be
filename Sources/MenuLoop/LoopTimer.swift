import CUV

/// A one-shot or repeating timer (`uv_timer`), restartable and stoppable: menud's
/// stalled-reader drop, the settle delay of the config watch, the accept back-off
/// and the timeouts of `on-change` and `children-cmd`.
public final class LoopTimer: LoopHandle {
    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_timer_t>?
    /// Called each time the timer fires; dropped when the timer closes.
    public var onFire: (() -> Void)?

    public init(loop: EventLoop) {
        handle = try! allocateHandle(uv_timer_t.self) { uv_timer_init(loop.raw, $0) }
    }

    /// (Re)starts the timer: it fires once after `delay`, then every `interval` if
    /// one is given. A running timer is restarted from now.
    public func start(after delay: Duration, repeating interval: Duration? = nil) {
        guard let handle, uv_is_closing(asHandle(handle)) == 0 else { return }
        uv_timer_start(
            handle, { owner(of: $0, as: LoopTimer.self).onFire?() },
            Self.milliseconds(delay), interval.map(Self.milliseconds) ?? 0)
    }

    /// Stops the timer; it can be started again.
    public func stop() {
        if let handle { uv_timer_stop(handle) }
    }

    /// Whether the timer will fire.
    public var isActive: Bool { handle.map { uv_is_active(asHandle($0)) != 0 } ?? false }

    /// Whether this timer alone keeps ``EventLoop/run()`` going (`uv_ref`); it does
    /// unless turned off, as for a watchdog that must not hold the loop open.
    public var keepsLoopAlive: Bool {
        get { handle.map { uv_has_ref(asHandle($0)) != 0 } ?? false }
        set {
            guard let handle else { return }
            if newValue { uv_ref(asHandle(handle)) } else { uv_unref(asHandle(handle)) }
        }
    }

    /// Stops the timer for good and releases it.
    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onFire = nil
    }

    /// libuv's timers count whole milliseconds; a delay is rounded up, never down to
    /// firing early.
    private static func milliseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let rest = (attoseconds + perMillisecond - 1) / perMillisecond
        return UInt64(seconds) * 1000 + UInt64(rest)
    }
}
