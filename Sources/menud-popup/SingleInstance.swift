import CGtk

#if canImport(Glibc)
    import Glibc
#endif

/// One popup per daemon: running menud-popup while one is open closes that one, so a
/// bar's single `on-click` opens and closes it. The open popup holds a lock on a
/// file beside the daemon's socket, holding its pid; a second run that finds the
/// lock held ends the first with SIGTERM instead of opening. A resident popup
/// (`--resident`) writes `resident` after its pid, and a second run asks it with
/// SIGUSR1 to open or close instead: no start for the user to wait for.
enum SingleInstance {
    enum Claim {
        /// This process holds the lock (its descriptor stays open until exit).
        case claimed
        /// Another popup held it and was asked to close.
        case closedOther(pid_t)
        /// A resident popup held it and was asked to open or close.
        case toggledResident(pid_t)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func lockPath(socket: String) -> String { socket + ".popup" }

    /// SIGUSR1, which a later run sends a resident popup: armed before the claim
    /// tells other runs to send it (its default action would end the process), and
    /// acted on in the main loop, by then with `toggle` set.
    final class ToggleSignal {
        var toggle: () -> Void = {}

        init() {
            _ = g_unix_signal_add_full(
                G_PRIORITY_DEFAULT, SIGUSR1,
                { data in
                    Unmanaged<ToggleSignal>.fromOpaque(data!).takeUnretainedValue().toggle()
                    return 1
                }, Unmanaged.passRetained(self).toOpaque(), nil)
        }
    }

    static func claim(socket: String, resident: Bool) throws -> Claim {
        let path = lockPath(socket: socket)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            let text = Array("\(getpid())\(resident ? " resident" : "")\n".utf8)
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
            let words =
                String(decoding: buffer[0..<max(n, 0)], as: UTF8.self)
                .split(separator: "\n").first?.split(separator: " ") ?? []
            if let first = words.first, let pid = pid_t(first) {
                if words.dropFirst().first == "resident" {
                    kill(pid, SIGUSR1)
                    return .toggledResident(pid)
                }
                kill(pid, SIGTERM)
                return .closedOther(pid)
            }
            usleep(10_000)
        }
        throw Failure(description: "another menud-popup holds \(path) but wrote no pid")
    }
}
