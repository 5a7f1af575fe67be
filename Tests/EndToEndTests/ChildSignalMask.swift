import Foundation

extension Process {
    /// Starts the process with no signal blocked. A child inherits the signal mask of
    /// the thread that spawns it, and the threads tests run on (libdispatch's workers)
    /// block nearly every signal, so programs started from a test ignored SIGTERM until
    /// they were killed: Xvfb then never removed its socket and lock file from /tmp.
    /// Foundation spawns on the calling thread and cannot set a child's mask, so the
    /// thread's own mask is cleared for the moment of the spawn.
    func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
