import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Replaces a file so that a crash at any moment leaves either the old contents or
/// the new, never a mix: write a new temporary file next to it, fsync it, rename it over
/// the file (atomic within a directory), then fsync the directory so the rename
/// itself survives a power cut. Blocking; the daemon calls it off its event loop.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errno: Int32
        var description: String { "\(operation) \(path): \(String(cString: strerror(errno)))" }
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        let directory = Directory.parent(of: path)
        do {
            try Directory.makePrivate(directory)
        } catch {
            throw Failure(operation: "mkdir", path: error.path, errno: error.errno)
        }
        // A new file of a name nobody could have known (mkstemp: O_EXCL, mode 0600),
        // never one that exists: a link planted at a fixed name would be followed, and
        // its target overwritten with the state.
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(operation: "create", path: path + ".XXXXXX", errno: errno) }
        // Not inherited by a child that the loop starts meanwhile.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(Failure) {
            try writeAll(fd, Array(text.utf8), path: temporary)
            guard fsync(fd) == 0 else { throw Failure(operation: "fsync", path: temporary, errno: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename to", path: path, errno: code)
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw Failure(operation: "open", path: directory, errno: errno) }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw Failure(operation: "fsync", path: directory, errno: errno) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        if let error = WriteAll.write(fd, bytes) {
            throw Failure(operation: "write", path: path, errno: error)
        }
    }
}
