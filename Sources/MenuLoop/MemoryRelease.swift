import CUV

/// Giving freed memory back to the system. glibc keeps what a program freed for its
/// next allocations; a daemon that once held a huge menu and then a small one would
/// keep the huge one's size for good.
public enum MemoryRelease {
    /// Returns the free memory at the top of each heap and its free pages to the
    /// system. It walks every heap: run it on a pool thread (``BackgroundWork``).
    public static func trim() {
        _ = malloc_trim(0)
    }
}
