import MenuCore

/// One ``LogThrottle`` per cause that fails on its own (a node's readings, a group's
/// refreshes, a hook's runs): each cause's first failure is logged, then at most
/// one line per interval with how many were held back, until it works again.
struct LogThrottles<Key: Hashable> {
    private let interval: Duration
    private var failing: [Key: LogThrottle] = [:]

    init(interval: Duration) {
        self.interval = interval
    }

    /// A failure of `key`: the words to end its log line with ("" or " (and N more
    /// since the last report)"), or nil when the line is held back.
    mutating func admit(_ key: Key, now: ContinuousClock.Instant = .now) -> String? {
        var throttle = failing[key] ?? LogThrottle(interval: interval)
        let (log, held) = throttle.admit(now: now)
        failing[key] = throttle
        guard log else { return nil }
        return LogThrottle.heldBack(held)
    }

    /// `key` works again; true when it had been failing, which is then worth a line.
    mutating func recovered(_ key: Key) -> Bool { failing.removeValue(forKey: key) != nil }

    /// Whether `key`'s last outcome was a failure.
    func isFailing(_ key: Key) -> Bool { failing[key] != nil }

    /// The causes re-keyed by `key`; those it maps to nil are forgotten.
    mutating func rekey(_ key: (Key) -> Key?) {
        var out: [Key: LogThrottle] = [:]
        for (k, throttle) in failing {
            if let k = key(k) { out[k] = throttle }
        }
        failing = out
    }
}
