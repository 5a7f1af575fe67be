#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's signals as it starts. A write to a client that has gone must fail
/// with EPIPE, not kill the daemon, so SIGPIPE is ignored. And whoever started the
/// daemon may have left signals blocked (a program that starts it from a thread that
/// blocks them, as test runners and thread pools do); the loop's signal watches and
/// its reaping of children (SIGCHLD) need them delivered, so all are unblocked
/// before any thread starts.
enum SignalDisposition {
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
    }
}
