import Foundation

/// A task executor with one thread of its own. A test that runs on it may block that
/// thread (a socket read, a process wait) without holding up anything else: Swift
/// concurrency's cooperative pool has one thread per core, and a blocking call there
/// stalls every other test's task, its `Task.sleep` wake-ups included.
///
/// Jobs run in the order they were enqueued. ``finish()`` lets the thread end once
/// the jobs enqueued so far have run; a job enqueued after that still runs, on a
/// thread started for it, so that no job is ever lost.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// Guarded by `condition`.
    private var finishing = false
    /// Guarded by `condition`: whether the thread has left its loop.
    private var ended = false

    /// The key under which the executor's thread marks itself, for ``isCurrentThreadOwn``.
    private static let marker = "menud.tests.ownThread"

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        // Deep recursion in Swift Testing's expansion of `#expect` and in the
        // sanitizers' instrumentation: the cooperative pool's threads have 8 MiB too.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Whether the calling thread is one of these executors' threads, not one of the
    /// cooperative pool's.
    public static var isCurrentThreadOwn: Bool {
        Thread.current.threadDictionary[marker] as? Bool == true
    }

    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        if ended {
            condition.unlock()
            let executor = asUnownedTaskExecutor()
            Thread {
                Thread.current.threadDictionary[Self.marker] = true
                job.runSynchronously(on: executor)
            }.start()
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already enqueued have run.
    public func finish() {
        condition.lock()
        finishing = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        Thread.current.threadDictionary[Self.marker] = true
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finishing { condition.wait() }
            if jobs.isEmpty {
                ended = true
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
