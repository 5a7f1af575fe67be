import CUV

/// The priority of the thread that calls, for long jobs on libuv's pool that must not
/// take the processor from the loop: on a machine of two cores, a reload that reads a
/// huge config beside the loop would otherwise share a core with it, and clients
/// would wait for the scheduler's turns.
public enum ThreadPriority {
    /// How far below the loop a background job runs: the nice value it gets.
    public static let background: Int32 = 19

    /// Lowers the calling thread to ``background``. A pool thread stays there: an
    /// unprivileged process cannot raise it again, and every job run there is
    /// background work.
    public static func lowerToBackground() {
        _ = menud_set_thread_nice(background)
    }
}
