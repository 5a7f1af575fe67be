import MenuLoop
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's socket file: making a private directory for it, making sure no live
/// daemon owns it already, and removing it on the way out. A socket file outlives a
/// crashed daemon, so a leftover one is expected and replaced, but only after a
/// connection attempt proves nobody is listening.
struct SocketFile {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let path: String

    var directory: String { SocketDirectory.of(path) }

    /// Creates the directory (and missing parents) with mode 0700, or checks the one
    /// that is there (``SocketDirectory/problem(_:)``): whoever controls it controls
    /// which socket clients reach.
    func prepareDirectory() throws(Problem) {
        // Before anything is made for it: a path that cannot be bound leaves nothing.
        let length = path.utf8.count
        guard length <= UnixSocketAddress.maxPathLength else {
            throw Problem(
                description:
                    "socket path \(path) is \(length) bytes long, and a Unix socket's path can be at most \(UnixSocketAddress.maxPathLength); choose a shorter one with --socket or MENUD_SOCKET"
            )
        }
        let created: Bool
        do {
            created = try Directory.makePrivate(directory)
        } catch {
            throw Problem(
                description: "cannot create \(error.path): \(String(cString: strerror(error.errno)))")
        }
        // Checked after mkdir, whoever made it: a directory planted between a check
        // and a mkdir would otherwise slip through.
        if let problem = SocketDirectory.problem(directory) {
            throw Problem(description: problem + ": give the socket a private directory")
        }
        // mkdir's mode is filtered by the umask; a directory we made must end up 0700.
        if created { chmod(directory, 0o700) }
    }

    /// `PATH.lock`, which a daemon holds locked (flock) for as long as it runs.
    var lockPath: String { path + ".lock" }

    /// Takes the lock beside the socket, for the life of the process (the descriptor
    /// is never closed; the kernel lets go of it at exit, however the daemon ends).
    /// Two daemons started at once on one path would otherwise both find the socket
    /// stale and both go on: one removes the other's socket, and the other is left
    /// running unreachable. With the lock, the second says who has the path.
    func lock() throws(Problem) {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw Problem(description: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw Problem(
                    description: "another menud is already running on \(path) (it holds \(lockPath))")
            }
            throw Problem(description: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
    }

    /// Why the socket cannot be listened on, naming it.
    func listenProblem(_ error: UVError) -> Problem {
        let hint =
            error.errno == EADDRINUSE
            ? " (something else took the path after menud found it free)" : ""
        return Problem(description: "cannot listen on \(path): \(error)\(hint)")
    }

    /// Makes the path free for binding: fails when a daemon answers there, removes a
    /// stale socket, and refuses to delete anything that is not a socket. Called with
    /// the lock held, so no other daemon is between its probe and its bind.
    func claim() throws(Problem) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw Problem(description: "\(path) exists and is not a socket; refusing to replace it")
        }
        switch UnixSocketAddress.probe(path) {
        case nil:
            throw Problem(description: "another menud is already running on \(path)")
        case ENOENT?, ECONNREFUSED?:
            // Nobody listens: a file left behind by a daemon that died.
            guard unlink(path) == 0 || errno == ENOENT else {
                throw Problem(
                    description: "cannot remove stale socket \(path): \(String(cString: strerror(errno)))")
            }
        case let error?:
            throw Problem(description: "cannot probe \(path): connect: \(String(cString: strerror(error)))")
        }
    }

    /// Owner-only access; the peer-credential check is the second line of defence.
    func restrictMode() throws(Problem) {
        guard chmod(path, 0o600) == 0 else {
            throw Problem(description: "cannot chmod \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The socket goes; the lock file stays, unlocked at exit: removing it while
    /// another daemon waits to open it would let two daemons lock two files.
    func remove() { unlink(path) }
}
