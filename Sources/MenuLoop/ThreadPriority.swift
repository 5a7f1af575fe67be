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

    /// Lowers the calling thread to ``background``, with the scheduler's usual
    /// slice (a thread inherits its creator's, and the loop's is short). A pool
    /// thread stays there: an unprivileged process cannot raise it again, and every
    /// job run there is background work.
    public static func lowerToBackground() {
        _ = menud_set_thread_nice(background)
        _ = menud_set_thread_slice(0)
    }

    /// The loop thread's scheduler slice: 0.1 ms, the least Linux takes (6.12 and
    /// later; older kernels ignore it). Nice values weigh how the processor is shared,
    /// not how soon a thread gets it: a thread that wakes waits for the running one's
    /// slice to end, about 3 ms by default, even when that one is a pool thread at
    /// nice 10. With a short slice of its own the loop takes the processor at once
    /// when a request wakes it (BENCHMARKS.md, faults: ten clients searching).
    public static let loopSlice: UInt64 = 100_000

    /// Gives the calling thread, the loop's, ``loopSlice``; false where the kernel
    /// refuses it, which leaves the thread as it was.
    public static func shortenLoopSlice() -> Bool {
        menud_set_thread_slice(loopSlice) == 0
    }
}
