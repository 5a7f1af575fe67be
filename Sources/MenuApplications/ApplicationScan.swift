#if canImport(Glibc)
    import Glibc
#endif

/// The installed applications: every desktop entry in the `applications`
/// directories, read recursively, the first of each desktop-file id winning (so an
/// entry in `~/.local/share/applications` overrides the system's of the same id),
/// and those the menu leaves out left out: `NoDisplay` or `Hidden` ones, others than
/// `Type=Application`, those whose `OnlyShowIn` or `NotShowIn` exclude the current
/// desktop, and those whose `TryExec` program is missing.
///
/// A file that cannot be read as an entry (not UTF-8, malformed, over
/// ``DesktopEntry/sizeLimit``, a symlink loop) is skipped with one line in
/// ``problems``; nothing else is affected.
public struct ApplicationScan: Sendable, Equatable {
    /// The entries shown, in no particular order.
    public var entries: [DesktopEntry] = []
    /// One line per file skipped, `PATH: why`.
    public var problems: [String] = []
    /// Every directory read, for a watch to follow.
    public var directories: [String] = []
    /// How many desktop files were read.
    public var filesRead = 0

    /// How deep below an `applications` directory entries are looked for.
    public static let depthLimit = 16

    /// Scans the directories of `environment`.
    public init(_ environment: ApplicationEnvironment) {
        var reader = FileReader()
        var ids = Set<String>()
        var visited = Set<DirectoryKey>()
        for directory in environment.directories {
            walk(directory, prefix: "", depth: 0, environment, &reader, &ids, &visited)
        }
    }

    /// A directory by device and inode: one reached again through a symlink is not
    /// read twice, and a symlink loop ends there.
    struct DirectoryKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private mutating func walk(
        _ directory: String, prefix: String, depth: Int, _ environment: ApplicationEnvironment,
        _ reader: inout FileReader, _ ids: inout Set<String>, _ visited: inout Set<DirectoryKey>
    ) {
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            if depth > 0 { problems.append("\(Self.shown(directory)): \(Self.errorText(errno))") }
            return
        }
        guard visited.insert(DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        else {
            problems.append("\(Self.shown(directory)): a directory read already (a symlink loop?); skipped")
            return
        }
        guard let handle = opendir(directory) else {
            if depth > 0 { problems.append("\(Self.shown(directory)): \(Self.errorText(errno))") }
            return
        }
        directories.append(directory)
        var names: [(name: String, type: UInt8)] = []
        while let item = readdir(handle) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            names.append((name, item.pointee.d_type))
        }
        // Open until its files are read: each is opened by its name in it, which
        // spares the kernel walking the whole path two thousand times.
        defer { closedir(handle) }
        let descriptor = dirfd(handle)
        // The order of a directory's entries is the file system's: sorted, two files
        // of one id (`a-b.desktop`, `a/b.desktop`) always resolve the same way.
        names.sort { $0.name < $1.name }
        for (name, type) in names {
            let path = directory + "/" + name
            let isDesktop = name.hasSuffix(".desktop") && name.utf8.count > 8
            var isDirectory = type == UInt8(DT_DIR)
            if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) {
                var target = stat()
                if fstatat(descriptor, name, &target, 0) != 0 {
                    if isDesktop { problems.append("\(Self.shown(path)): \(Self.errorText(errno))") }
                    continue
                }
                isDirectory = (target.st_mode & S_IFMT) == S_IFDIR
            }
            if isDirectory {
                if depth + 1 < Self.depthLimit {
                    walk(
                        path, prefix: prefix + name + "-", depth: depth + 1, environment, &reader, &ids,
                        &visited)
                }
                continue
            }
            guard isDesktop else { continue }
            let id = prefix + name
            guard ids.insert(id).inserted else { continue }
            filesRead += 1
            read(
                path, name: name, in: descriptor, id: id, regular: type == UInt8(DT_REG), environment, &reader
            )
        }
    }

    private mutating func read(
        _ path: String, name: String, in directory: Int32, id: String, regular: Bool,
        _ environment: ApplicationEnvironment, _ reader: inout FileReader
    ) {
        let entry: DesktopEntry
        do throws(DesktopEntry.Unreadable) {
            entry = try reader.withContents(of: name, in: directory, regular: regular) {
                bytes throws(DesktopEntry.Unreadable) in
                try DesktopEntry.read(bytes, id: id, file: path, locale: environment.locale)
            }
        } catch {
            problems.append("\(Self.shown(path)): \(error.description); skipped")
            return
        }
        if Self.isShown(entry, environment) { entries.append(entry) }
    }

    /// Whether the menu shows `entry` in `environment`.
    public static func isShown(_ entry: DesktopEntry, _ environment: ApplicationEnvironment) -> Bool {
        guard entry.type == "Application", !entry.hidden, !entry.noDisplay else { return false }
        if let only = entry.onlyShowIn, !only.contains(where: environment.desktops.contains) { return false }
        if let not = entry.notShowIn, not.contains(where: environment.desktops.contains) { return false }
        if let tryExec = entry.tryExec, !tryExec.isEmpty, !isExecutable(tryExec, path: environment.path) {
            return false
        }
        return true
    }

    /// Whether `program` names an executable file: itself when it has a `/`, else
    /// in one of `path`'s directories.
    static func isExecutable(_ program: String, path: [String]) -> Bool {
        func executable(_ file: String) -> Bool {
            var info = stat()
            return stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(file, X_OK) == 0
        }
        if program.contains("/") { return executable(program) }
        return path.contains { !$0.isEmpty && executable($0 + "/" + program) }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A path as a log line shows it: a control character in a file name would start
    /// a line of its own.
    static func shown(_ path: String) -> String {
        String(
            String.UnicodeScalarView(
                path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
    }
}

/// Reads files into one buffer that grows to the largest, so that two thousand
/// small files cost no allocation each.
struct FileReader {
    private var buffer: [UInt8] = []

    /// Calls `body` with the contents of the regular file `name` in the open
    /// `directory`, at most
    /// ``DesktopEntry/sizeLimit`` bytes of it: a larger file, or anything else than a
    /// regular file (a FIFO would block), is refused. A file the directory listed as
    /// `regular` is not asked again: two thousand files are read in three calls each
    /// (open, read, close), which is most of a scan's time.
    mutating func withContents<T>(
        of name: String, in directory: Int32, regular: Bool,
        _ body: (UnsafeBufferPointer<UInt8>) throws(DesktopEntry.Unreadable) -> T
    ) throws(DesktopEntry.Unreadable) -> T {
        let fd = openat(directory, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw DesktopEntry.Unreadable(description: ApplicationScan.errorText(errno)) }
        defer { close(fd) }
        if !regular {
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw DesktopEntry.Unreadable(description: ApplicationScan.errorText(errno))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw DesktopEntry.Unreadable(description: "not a regular file")
            }
        }
        let limit = DesktopEntry.sizeLimit
        // One byte more than the limit, to tell a file that is larger.
        let wanted = limit + 1
        if buffer.count < wanted {
            // Not zeroed: only what a read writes is ever looked at, and the pages
            // no file reaches are never touched.
            buffer = [UInt8](unsafeUninitializedCapacity: wanted) { _, count in count = wanted }
        }
        var total = 0
        let failure: Int32? = buffer.withUnsafeMutableBytes { raw in
            while total < wanted {
                let n = Glibc.read(fd, raw.baseAddress! + total, wanted - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                total += n
                // A regular file gives all it has at once: a short read is its end.
                if n == 0 || total < wanted { break }
            }
            return nil
        }
        if let failure { throw DesktopEntry.Unreadable(description: ApplicationScan.errorText(failure)) }
        guard total <= limit else {
            throw DesktopEntry.Unreadable(description: "larger than \(limit >> 20) MiB")
        }
        return try buffer.withUnsafeBufferPointer { all throws(DesktopEntry.Unreadable) in
            try body(UnsafeBufferPointer(rebasing: all[..<total]))
        }
    }
}
