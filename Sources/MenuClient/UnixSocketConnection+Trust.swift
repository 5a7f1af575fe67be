#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnixSocketConnection {
    /// Why a client must not talk to the socket at `path`: its directory is not a
    /// private one of the user's own (in the `/tmp/menud-$UID` fallback anybody could
    /// have made it first and put a socket there), or whoever listens is another user.
    /// menud refuses the same directories (its `SocketFile`); a client checks both
    /// before it sends anything.
    public struct Untrusted: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Connects to `path` as ``connect(path:)`` does, once the directory has passed
    /// the checks of ``Untrusted``, and makes sure the peer is the same user.
    public static func connectToOwnDaemon(path: String) throws -> UnixSocketConnection {
        // A path no socket can have says so first, as ``connect(path:)`` would.
        guard path.utf8.count <= UnixSocketAddress.maxPathLength else {
            throw Failure(operation: "socket path too long", errno: ENAMETOOLONG)
        }
        if let problem = directoryProblem(of: path) { throw Untrusted(description: problem) }
        let connection = try connect(path: path)
        #if canImport(Glibc)
            // struct ucred: pid, uid, gid.
            var credentials: (pid_t, uid_t, gid_t) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            guard getsockopt(connection.fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
                throw Failure(operation: "SO_PEERCRED", errno: errno)
            }
            guard credentials.1 == getuid() else {
                throw Untrusted(
                    description:
                        "the process listening there (pid \(credentials.0)) belongs to uid \(credentials.1), not to you (uid \(getuid())); refusing to talk to it"
                )
            }
        #endif
        return connection
    }

    /// Nil when the socket's directory is a real directory of the user's own that
    /// nobody else can write to; else why not. A directory that is not there is no
    /// problem here: connecting then fails and says so.
    static func directoryProblem(of path: String) -> String? {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
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
