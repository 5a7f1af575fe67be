import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a blocking job on libuv's thread pool (`uv_queue_work`) and hands its result
/// back on the loop's thread: menud's state file writes, whose `fsync` can take long
/// enough to stall every client if the loop did it. A job in flight keeps the loop
/// running until its result has been delivered.
///
/// The pool's threads take no signal: libuv starts them at the first job, from the
/// thread that queues it, and a new thread starts with its creator's signal mask, so
/// the jobs are queued with every asynchronous signal blocked. Otherwise the kernel
/// may hand a child's `SIGCHLD` (or a `SIGTERM`) to an idle pool thread, which wakes
/// only to pass it on to the loop's thread through libuv's signal pipe: a second
/// wake-up for each child that ends.
public enum BackgroundWork {
    /// Runs `work` on a pool thread, then `done` with its result on the loop's thread.
    /// Jobs may run at the same time and finish in any order: a caller that needs
    /// them in order starts the next from the previous one's `done`.
    public static func run<Value: Sendable>(
        on loop: EventLoop, _ work: @escaping @Sendable () -> Value, then done: @escaping (Value) -> Void
    ) throws(UVError) {
        let job = Job(work: work, done: done)
        let request = UnsafeMutablePointer<uv_work_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(job as AnyJob).toOpaque()
        var previous = sigset_t()
        var asynchronous = Self.asynchronousSignals
        pthread_sigmask(SIG_BLOCK, &asynchronous, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let rc = uv_queue_work(
            loop.raw, request,
            { request in
                Unmanaged<AnyJob>.fromOpaque(request!.pointee.data).takeUnretainedValue().perform()
            },
            { request, _ in
                let job = Unmanaged<AnyJob>.fromOpaque(request!.pointee.data).takeRetainedValue()
                request!.deallocate()
                job.finish()
            })
        guard rc == 0 else {
            Unmanaged<AnyJob>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            throw UVError(rc)
        }
    }

    /// Every signal but those a fault raises in the thread that caused it, which
    /// must stay deliverable there (the kernel kills a process whose thread faults
    /// with them blocked, before any crash report).
    private static var asynchronousSignals: sigset_t {
        var set = sigset_t()
        sigfillset(&set)
        for fault in [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS] { sigdelset(&set, fault) }
        return set
    }
}

/// A job as the C callbacks see it, whatever its result's type.
private class AnyJob: @unchecked Sendable {
    /// On a pool thread.
    func perform() {}
    /// On the loop's thread, after ``perform()``: libuv's queue hands the job over
    /// under its lock, which orders the two.
    func finish() {}
}

private final class Job<Value: Sendable>: AnyJob, @unchecked Sendable {
    private var work: (@Sendable () -> Value)?
    private var done: ((Value) -> Void)?
    private var value: Value?

    init(work: @escaping @Sendable () -> Value, done: @escaping (Value) -> Void) {
        self.work = work
        self.done = done
    }

    /// Lets go of `work`, and so of what it captured, on the pool thread: a job given
    /// the last reference to something big frees it there, not on the loop.
    override func perform() {
        value = work?()
        work = nil
    }

    override func finish() {
        let done = self.done
        self.done = nil
        if let value { done?(value) }
    }
}
