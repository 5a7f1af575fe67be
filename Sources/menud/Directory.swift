import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Directory paths: the one a file is in, and making the private ones the daemon
/// keeps its state and socket in.
enum Directory {
    struct Failure: Error {
        /// The directory that could not be made: `path` itself or one of its parents.
        var path: String
        var errno: Int32
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a file at the root.
    static func parent(of path: String) -> String { SocketDirectory.of(path) }

    /// `mkdir -p` with mode 0700 (less the umask): what is kept there is private to
    /// its user. Returns whether `directory` itself was made by this call rather than
    /// being there already.
    @discardableResult
    static func makePrivate(_ directory: String) throws(Failure) -> Bool {
        var info = stat()
        if stat(directory, &info) == 0 { return false }
        var built = directory.hasPrefix("/") ? "" : "."
        var created = false
        for part in directory.split(separator: "/") {
            built += "/" + part
            created = mkdir(built, 0o700) == 0
            if !created, errno != EEXIST { throw Failure(path: built, errno: errno) }
        }
        return created
    }
}
