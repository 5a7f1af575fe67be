#if canImport(Glibc)
    import Glibc
#endif

/// Writing a whole buffer to a descriptor that blocks: the one loop that menud and
/// menuctl use for files, pipes, their standard streams and a client's socket. A
/// write may take part of the buffer, or be interrupted by a signal before it takes
/// any; both go on where they stopped.
public enum WriteAll {
    /// Writes all of `bytes` to `fd`; nil when done, else the `errno` of the write
    /// that failed (a write that takes nothing counts as `EIO`). `toSocket` sends
    /// with `MSG_NOSIGNAL`, so that a peer gone away is `EPIPE` and not SIGPIPE.
    public static func write(_ fd: Int32, _ bytes: some Collection<UInt8>, toSocket: Bool = false) -> Int32? {
        let written = bytes.withContiguousStorageIfAvailable {
            write(fd, UnsafeRawBufferPointer($0), toSocket)
        }
        return written ?? Array(bytes).withUnsafeBytes { write(fd, $0, toSocket) }
    }

    private static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ toSocket: Bool) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let n =
                toSocket
                ? Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                : Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    /// A line to standard error, for a message that has nowhere else to go: Glibc's
    /// `stderr` is a global that Swift 6 will not let us touch.
    public static func errorLine(_ message: String) {
        _ = write(2, Array((message + "\n").utf8))
    }
}
