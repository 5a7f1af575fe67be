import CUV
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How finished jobs come back to one loop: a worker puts the job on ``done`` and
/// writes to an eventfd; the loop, woken by its readiness, runs each job's `done`.
/// While jobs are in flight a poll handle watches the eventfd and keeps the loop
/// running; with none, it is closed, so that an idle loop holds no handle for it.
final class WorkChannel: @unchecked Sendable {
    private unowned let loop: EventLoop
    private let eventDescriptor: Int32
    private let done = Mutex<[AnyJob]>([])
    /// On the loop's thread only.
    private var inFlight = 0
    private var wake: WorkWake?

    init(loop: EventLoop) throws(UVError) {
        self.loop = loop
        eventDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard eventDescriptor >= 0 else { throw UVError(-errno) }
    }

    deinit { close(eventDescriptor) }

    /// On the loop's thread.
    func submit(_ job: AnyJob) throws(UVError) {
        if wake == nil { wake = try WorkWake(loop: loop, descriptor: eventDescriptor, channel: self) }
        inFlight += 1
        do throws(UVError) {
            try WorkerThreads.shared.enqueue(job)
        } catch {
            inFlight -= 1
            closeIfIdle()
            throw error
        }
    }

    /// On a worker thread, once the job has run.
    func finished(_ job: AnyJob) {
        done.withLock { $0.append(job) }
        var one: UInt64 = 1
        _ = write(eventDescriptor, &one, 8)
    }

    /// On the loop's thread, when the eventfd is readable. A job's `done` may submit
    /// the next job, which keeps the handle open.
    func deliver() {
        var count: UInt64 = 0
        _ = read(eventDescriptor, &count, 8)
        let jobs = done.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in jobs {
            inFlight -= 1
            job.finish()
        }
        closeIfIdle()
    }

    private func closeIfIdle() {
        guard inFlight == 0, let wake else { return }
        wake.close()
        self.wake = nil
    }
}

/// The poll handle of a ``WorkChannel`` with jobs in flight. A handle of its own for
/// each busy spell, so that one closing while the next opens cannot be confused.
final class WorkWake: LoopHandle {
    private var handle: UnsafeMutablePointer<uv_poll_t>?
    private var channel: WorkChannel?

    init(loop: EventLoop, descriptor: Int32, channel: WorkChannel) throws(UVError) {
        self.channel = channel
        let handle = try allocateHandle(uv_poll_t.self) { uv_poll_init(loop.raw, $0, descriptor) }
        self.handle = handle
        let rc = uv_poll_start(handle, Int32(UV_READABLE.rawValue)) { handle, _, _ in
            owner(of: handle, as: WorkWake.self).channel?.deliver()
        }
        guard rc == 0 else {
            closeHandle(handle)
            throw UVError(rc)
        }
    }

    func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        channel = nil
    }
}
