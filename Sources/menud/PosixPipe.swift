#if canImport(Glibc)
    import Glibc
#endif

/// A pipe whose ends are closed on exec, so a child started later holds only what
/// it is given. (`pipe2` would do this at once, but Glibc hides it from Swift.) Both
/// ends are made on the event loop, the only thread that starts children, so no
/// spawn can slip in between `pipe` and `fcntl`.
enum PosixPipe {
    struct Failure: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { "pipe: \(String(cString: strerror(errno)))" }
    }

    static func make(nonBlockingWrite: Bool = false) throws(Failure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Failure(errno: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        if nonBlockingWrite { _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK) }
        return (fds[0], fds[1])
    }
}
