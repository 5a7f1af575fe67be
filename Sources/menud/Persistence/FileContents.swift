#if canImport(Glibc)
    import Glibc
#endif

/// A small file read whole with libc, as the state file is at start.
enum FileContents {
    enum Failure: Error, Equatable {
        /// Nothing at the path (ENOENT).
        case missing
        /// Something is there but cannot be read: the errno, or nil when it is not a
        /// regular file.
        case unreadable(Int32?)
        /// Larger than the limit given, in bytes: not read at all.
        case tooLarge(Int)

        var reason: String {
            switch self {
            case .missing: return String(cString: strerror(ENOENT))
            case .unreadable(let code?): return String(cString: strerror(code))
            case .unreadable(nil): return "not a regular file"
            case .tooLarge(let limit): return "larger than \(limit) bytes"
            }
        }
    }

    /// The file's bytes; a file larger than `limit` bytes is not read.
    static func read(_ path: String, limit: Int = .max) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: a FIFO in the file's place must not hang the daemon in open().
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(errno == ENOENT ? .missing : .unreadable(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable(nil)) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge(limit)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno))
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<n])
            // It grew while being read.
            if bytes.count > limit { return .failure(.tooLarge(limit)) }
        }
    }
}
