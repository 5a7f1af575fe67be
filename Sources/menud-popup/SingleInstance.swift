#if canImport(Glibc)
    import Glibc
#endif

/// One popup per daemon: running menud-popup while one is open closes that one, so a
/// bar's single `on-click` opens and closes it. The open popup holds a lock on a
/// file beside the daemon's socket, holding its pid; a second run that finds the
/// lock held ends the first with SIGTERM instead of opening.
enum SingleInstance {
    enum Claim {
        /// This process holds the lock (its descriptor stays open until exit).
        case claimed
        /// Another popup held it and was asked to close.
        case closedOther(pid_t)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func lockPath(socket: String) -> String { socket + ".popup" }

    static func claim(socket: String) throws -> Claim {
        let path = lockPath(socket: socket)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            let text = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            // Kept open, and so locked, for the process's life.
            return .claimed
        }
        defer { close(fd) }
        guard errno == EWOULDBLOCK else {
            throw Failure(description: "cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        // The holder writes its pid just after it locks: wait a moment for it.
        for _ in 0..<100 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if n > 0,
                let pid = pid_t(
                    String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first ?? "")
            {
                kill(pid, SIGTERM)
                return .closedOther(pid)
            }
            usleep(10_000)
        }
        throw Failure(description: "another menud-popup holds \(path) but wrote no pid")
    }
}
