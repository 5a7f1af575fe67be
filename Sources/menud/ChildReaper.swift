#if canImport(Glibc)
    import Glibc
#endif

/// Collects the exit status of every child the daemon started, so that none lingers
/// as a zombie. menud is the only one starting processes in its address space (no
/// Foundation `Process`), so reaping any child (`waitpid(-1)`) takes nothing from
/// anybody. A plain SIGCHLD handler is used because `waitpid` is async-signal-safe and
/// this needs no thread, no timer and no cooperation from the event loop.
enum ChildReaper {
    /// Installs the handler; call once, before any child is started.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var status: Int32 = 0
            while waitpid(-1, &status, WNOHANG) > 0 {}
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        // SA_RESTART: a child exiting must not make the event loop's syscalls fail.
        action.sa_flags = SA_RESTART | SA_NOCLDSTOP
        sigaction(SIGCHLD, &action, nil)
    }
}
