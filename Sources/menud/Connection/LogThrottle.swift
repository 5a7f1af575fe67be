/// Lets a repeated warning through at most once per interval and counts what it held
/// back, so that a flood of refused connections cannot flood the log in turn.
struct LogThrottle {
    private let interval: Duration
    private var lastLogged: ContinuousClock.Instant?
    private var suppressed = 0

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether to log now, and how many occurrences were held back since the last one.
    mutating func admit(now: ContinuousClock.Instant = .now) -> (log: Bool, suppressed: Int) {
        if let lastLogged, now < lastLogged + interval {
            suppressed += 1
            return (false, 0)
        }
        lastLogged = now
        defer { suppressed = 0 }
        return (true, suppressed)
    }

    /// The words a line that was let through ends with: how many were held back.
    static func heldBack(_ suppressed: Int) -> String {
        suppressed > 0 ? " (and \(suppressed) more since the last report)" : ""
    }
}
