import CUV
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The threads that run ``BackgroundWork``'s jobs, for every loop of the process,
/// started at the first job: one fewer than the processors (one on a machine of two),
/// so that jobs that compute (a search, a parse) leave the loop a processor of its
/// own, where libuv's pool has four. They run at ``ThreadPriority/background`` and
/// take no asynchronous signal.
///
/// libuv 1.44's pool (`uv_queue_work`), which Debian 12 ships, hands each result
/// back through `uv_async_send`, and its loop spins, yielding, while a pool thread
/// is between the two steps of that send. A pool thread that loses the processor
/// there, to a busier thread or to its own low priority, held the loop for
/// milliseconds: with ten clients searching, a ping's p99 was 9.8 ms against 0.36
/// ms idle (BENCHMARKS.md, faults). These threads hand results back through an
/// eventfd (``WorkChannel``), which has no such window.
final class WorkerThreads: @unchecked Sendable {
    static let shared = WorkerThreads()
    static let count = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)

    private let queue = Mutex<[AnyJob]>([])
    /// Counts the jobs queued: a thread waits on it for the next.
    private let waiting: UnsafeMutablePointer<sem_t>
    private let started = Mutex(false)

    private init() {
        waiting = .allocate(capacity: 1)
        sem_init(waiting, 0, 0)
    }

    /// Queues `job`, starting the threads first if none runs yet.
    func enqueue(_ job: AnyJob) throws(UVError) {
        try startOnce()
        queue.withLock { $0.append(job) }
        sem_post(waiting)
    }

    private func startOnce() throws(UVError) {
        let failed: Int32 = started.withLock { started in
            guard !started else { return 0 }
            // A new thread starts with its creator's signal mask.
            var previous = sigset_t()
            var asynchronous = Self.asynchronousSignals
            pthread_sigmask(SIG_BLOCK, &asynchronous, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            for _ in 0..<Self.count {
                var thread = pthread_t()
                let rc = pthread_create(
                    &thread, nil,
                    { _ in WorkerThreads.shared.serve() }, nil)
                guard rc == 0 else { return rc }
                pthread_detach(thread)
                started = true
            }
            return 0
        }
        if failed != 0 { throw UVError(-failed) }
    }

    private func serve() -> Never {
        ThreadPriority.lowerToBackground()
        while true {
            while sem_wait(waiting) != 0 {}
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.perform()
            job.channel.finished(job)
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
