#if canImport(Glibc)
    import Glibc
#endif

/// The file system as an icon lookup sees it: directories listed once each, so that
/// a lookup over a theme's dozens of directories asks the kernel nothing after the
/// first time it meets each one (``IconTheme``). Small text files read whole.
final class IconFiles {
    /// The names in each directory listed so far; an empty set for one that cannot
    /// be read.
    private var listings: [String: Set<String>] = [:]
    private(set) var directoriesListed = 0

    /// Whether `directory` holds an entry `name` (a file, or a link to one).
    func contains(_ name: String, in directory: String) -> Bool {
        listing(of: directory).contains(name)
    }

    func listing(of directory: String) -> Set<String> {
        if let known = listings[directory] { return known }
        var names = Set<String>()
        if let handle = opendir(directory) {
            while let item = readdir(handle) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.insert(name) }
            }
            closedir(handle)
        }
        directoriesListed += 1
        listings[directory] = names
        return names
    }

    /// Whether `path` names a regular file, following links.
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The text of the file at `path`, at most `limit` bytes of it; nil when it cannot
    /// be read or is larger.
    static func text(at path: String, limit: Int = 1 << 20) -> String? {
        bytes(at: path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them; nil when it
    /// cannot be read or is larger.
    static func bytes(at path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(Int(info.st_size), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        guard bytes.count <= limit else { return nil }
        return bytes
    }
}
