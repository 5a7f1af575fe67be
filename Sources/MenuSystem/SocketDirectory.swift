#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory that holds the socket decides which daemon clients reach: it must be
/// a real directory (never a symbolic link, which is not followed) of the user's own
/// that nobody else can write to. In the `/tmp/menud-$UID` fallback anybody could
/// have made it first. menud checks it before it binds, menuctl before it sends.
public enum SocketDirectory {
    /// The directory part of a socket path: `.` for a bare name, `/` for the root.
    public static func of(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Nil when `directory` passes; else why not, naming it. One that is not there
    /// is nil too: whoever goes on finds that out and says so.
    public static func problem(_ directory: String) -> String? {
        var info = stat()
        guard lstat(directory, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "\(directory) is a symbolic link; refusing to follow it"
        default: return "\(directory) is not a directory"
        }
        guard info.st_uid == getuid() else {
            return
                "\(directory) belongs to uid \(info.st_uid), not to you (uid \(getuid())); refusing to use it"
        }
        guard info.st_mode & 0o022 == 0 else {
            return
                "\(directory) is writable by group or others (mode \(String(info.st_mode & 0o7777, radix: 8))); refusing to use it"
        }
        return nil
    }
}
