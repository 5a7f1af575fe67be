#if canImport(Glibc)
    import Glibc
#endif

/// A damaged state file moved out of the way, to `FILE.bad.TIME` (UTC), so that
/// it can be looked at and nothing of it is lost; the newest few copies are kept, so
/// that a second damaged file does not replace the first.
enum SetAside {
    static let copiesKept = 5

    /// Moves `path` aside; returns where to, or the errno of the failed rename. The
    /// name carries the time to the nanosecond, in fixed width, so that the names
    /// sort as the copies were made.
    static func move(_ path: String) -> Result<String, Failure> {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        gmtime_r(&now.tv_sec, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%S", &parts)
        let seconds = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let nanoseconds = String(now.tv_nsec)
        let stamp = seconds + "." + String(repeating: "0", count: 9 - nanoseconds.count) + nanoseconds + "Z"
        var aside = "\(path).bad.\(stamp)"
        var n = 1
        while access(aside, F_OK) == 0 {
            aside = "\(path).bad.\(stamp)-\(n)"
            n += 1
        }
        guard rename(path, aside) == 0 else { return .failure(Failure(errno: errno)) }
        prune(path)
        return .success(aside)
    }

    struct Failure: Error {
        var errno: Int32
    }

    /// Removes all but the newest ``copiesKept`` copies: the names sort by time.
    private static func prune(_ path: String) {
        let directory = Directory.parent(of: path)
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        let prefix = name + ".bad."
        guard let stream = opendir(directory) else { return }
        var copies: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(prefix) { copies.append(name) }
        }
        closedir(stream)
        for name in copies.sorted().dropLast(copiesKept) { unlink("\(directory)/\(name)") }
    }
}
