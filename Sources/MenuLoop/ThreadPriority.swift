import CUV

/// The priority of the pool's threads, whose jobs must not take the processor from
/// the loop: on a machine of two cores, a reload that reads a huge config or ten
/// searches of a big menu beside the loop would otherwise share a core with it, and
/// clients would wait for the scheduler's turns.
public enum ThreadPriority {
    /// How far below the loop a background job runs: the nice value it gets. At 10 the
    /// loop weighs nine times what a pool thread does, and gets the processor back at
    /// once (BENCHMARKS.md, faults: ten clients searching); at 19 (68 times) a search
    /// or a `children-cmd` parse would also crawl behind any other program's busy
    /// thread, which a user waits on.
    public static let background: Int32 = 10

    /// Lowers the calling thread to ``background``. A pool thread stays there: an
    /// unprivileged process cannot raise it again, and every job run there is
    /// background work.
    public static func lowerToBackground() {
        _ = menud_set_thread_nice(background)
    }
}
