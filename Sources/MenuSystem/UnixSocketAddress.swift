#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket path as the `sockaddr` that `connect` and `bind` take: the one place that
/// fills a `sockaddr_un`, for menud's probe, menuctl's connection and menubench's
/// clients and servers.
public enum UnixSocketAddress {
    /// The longest path a `sockaddr_un` holds, in bytes: 107 on Linux.
    public static var maxPathLength: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// Calls `body` with `path` as an address and its length; nil, without calling it,
    /// when the path does not fit in `sun_path`.
    public static func with<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Whether something listens at `path`: nil when a connection was accepted (and
    /// closed at once), else the `errno` of the attempt (`ENOENT` or `ECONNREFUSED`
    /// for nobody there, `ENAMETOOLONG` for a path that does not fit).
    public static func probe(_ path: String) -> Int32? {
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        guard let rc = with(path, { connect(fd, $0, $1) }) else { return ENAMETOOLONG }
        return rc == 0 ? nil : errno
    }
}
