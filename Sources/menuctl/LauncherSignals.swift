import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A launcher ends with the `menuctl pick` that started it. The launcher leads a
/// process group of its own (so that a terminal can give it the foreground), which a
/// signal to pick alone no longer reaches: pick's handlers for SIGTERM, SIGINT and
/// SIGHUP send SIGTERM to that group, the launcher's shell and everything it started,
/// give the terminal back, then let the signal end pick as it would have.
///
/// The handlers do only what is async-signal-safe: atomic loads, `kill`, `signal`,
/// `tcsetpgrp`, `getpgrp` and `raise`.
enum LauncherSignals {
    /// The signals that end pick, and with it the launcher.
    static let ending: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Handles `ending` from now on, but leaves ignored any that pick was started
    /// with ignored (`nohup`, a background job of a script).
    static func install() {
        // Touched here so that a handler never runs their lazy initialisation.
        _ = runningGroup.load(ordering: .relaxed)
        _ = terminal.load(ordering: .relaxed)
        for number in ending {
            var old = sigaction()
            guard sigaction(number, nil, &old) == 0,
                unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self)
                    != unsafeBitCast(SIG_IGN, to: Int.self)
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = endLauncher
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
        }
    }

    /// Runs `body` with `ending` blocked: a signal that comes meanwhile is handled
    /// once they are unblocked, after `body` has said which launcher runs.
    static func blocked<T, E>(_ body: () throws(E) -> T) throws(E) -> T {
        var set = sigset_t()
        sigemptyset(&set)
        for number in ending { sigaddset(&set, number) }
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }

    /// The launcher's process group now runs, or none (0); call with `ending` blocked.
    static func running(group: pid_t) { runningGroup.store(group, ordering: .relaxed) }

    /// The terminal whose foreground the launcher's group has, or none (-1); call
    /// with `ending` blocked.
    static func foreground(terminal fd: Int32) { terminal.store(fd, ordering: .relaxed) }
}

/// The process group of the launcher running now; 0 when none runs.
private let runningGroup = Atomic<pid_t>(0)
/// The terminal pick gave its foreground to the launcher; -1 when none.
private let terminal = Atomic<Int32>(-1)

private func endLauncher(_ number: Int32) {
    let group = runningGroup.load(ordering: .relaxed)
    if group > 0 { kill(-group, SIGTERM) }
    let tty = terminal.load(ordering: .relaxed)
    if tty >= 0 {
        // From the background, tcsetpgrp would stop pick with SIGTTOU.
        signal(SIGTTOU, SIG_IGN)
        tcsetpgrp(tty, getpgrp())
    }
    signal(number, SIG_DFL)
    // Blocked while this handler runs, it ends pick once the handler returns.
    raise(number)
}
