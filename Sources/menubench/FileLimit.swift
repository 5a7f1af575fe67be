import Glibc

/// The open-file limit: the thousand-connection load holds a socket per connection
/// in this process, and the servers it starts inherit the limit.
enum FileLimit {
    /// Raises the soft limit to the hard one and returns the soft limit now in force.
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
