#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open files. Every client is a file descriptor, and the
/// soft limit a session hands out (often 1024) is far below the hard one, so the
/// daemon raises it at start as servers do; menubench too, for its thousand
/// connections and the servers it starts, which inherit the limit.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard limit and returns the soft limit now in force.
    public static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones, which clamps to Int.max.
        return Int(clamping: limit.rlim_cur)
    }
}
