import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a blocking job on a pool thread (``WorkerThreads``) and hands its result
/// back on the loop's thread: menud's state file writes, whose `fsync` can take long
/// enough to stall every client if the loop did it, reloads, searches and parses.
/// A job in flight keeps the loop running until its result has been delivered. Jobs
/// run at ``ThreadPriority/background``, so that a busy pool thread leaves the loop
/// its turn at once.
///
/// The pool's threads take no signal: otherwise the kernel may hand a child's
/// `SIGCHLD` (or a `SIGTERM`) to an idle pool thread, which wakes only to pass it on
/// to the loop's thread through libuv's signal pipe: a second wake-up for each child
/// that ends.
public enum BackgroundWork {
    /// How many jobs run at once: one fewer than the processors, at least one. A job
    /// that splits its work over threads of its own (a big menu's search) splits it
    /// over no more than these, so that it too leaves the loop a processor.
    public static var threads: Int { WorkerThreads.count }

    /// Runs `work` on a pool thread, then `done` with its result on the loop's thread.
    /// Jobs may run at the same time and finish in any order: a caller that needs
    /// them in order starts the next from the previous one's `done`. Called on the
    /// loop's thread.
    public static func run<Value: Sendable>(
        on loop: EventLoop, _ work: @escaping @Sendable () -> Value, then done: @escaping (Value) -> Void
    ) throws(UVError) {
        let channel = try loop.workChannel()
        try channel.submit(Job(work: work, done: done, channel: channel))
    }
}

/// A job as the threads see it, whatever its result's type.
class AnyJob: @unchecked Sendable {
    let channel: WorkChannel
    init(channel: WorkChannel) { self.channel = channel }
    /// On a pool thread.
    func perform() {}
    /// On the loop's thread, after ``perform()``: the channel's lock orders the two.
    func finish() {}
}

private final class Job<Value: Sendable>: AnyJob, @unchecked Sendable {
    private var work: (@Sendable () -> Value)?
    private var done: ((Value) -> Void)?
    private var value: Value?

    init(work: @escaping @Sendable () -> Value, done: @escaping (Value) -> Void, channel: WorkChannel) {
        self.work = work
        self.done = done
        super.init(channel: channel)
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
