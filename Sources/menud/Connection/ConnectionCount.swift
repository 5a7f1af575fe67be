/// How many client connections are open, and how many may be. The daemon's one
/// loop is the only thread that counts, so it needs no lock.
final class ConnectionCount {
    let limit: Int
    var open = 0
    /// Refusals are logged at most once per interval: a flood of clients must not
    /// flood the log in turn.
    var refusals = LogThrottle(interval: .seconds(10))

    init(limit: Int) {
        self.limit = limit
    }

    var isFull: Bool { open >= limit }

    /// Keeps a reserve of file descriptors below the process limit for what the
    /// daemon itself must open (state writes, config reloads, children commands), so
    /// that a flood of clients is refused with a reply instead of starving those.
    static func limit(forOpenFileLimit files: Int) -> Int {
        max(1, files - 64)
    }
}
