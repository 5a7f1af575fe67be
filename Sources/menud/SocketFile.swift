import MenuClient

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

    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates the directory (and missing parents) with mode 0700. An existing
    /// directory is left as it is, but must belong to us or be sticky like /tmp:
    /// otherwise another user could swap the socket under us.
    func prepareDirectory() throws(Problem) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw Problem(description: "\(directory) is not a directory")
            }
            guard info.st_uid == getuid() || info.st_mode & S_ISVTX != 0 else {
                throw Problem(
                    description: "\(directory) belongs to uid \(info.st_uid), not to us; refusing to use it")
            }
            return
        }
        var built = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0, errno != EEXIST {
                throw Problem(description: "cannot create \(built): \(String(cString: strerror(errno)))")
            }
        }
        // mkdir's mode is filtered by the umask; the directory must end up exactly 0700.
        chmod(directory, 0o700)
    }

    /// Makes the path free for binding: fails when a daemon answers there, removes a
    /// stale socket, and refuses to delete anything that is not a socket.
    func claim() throws(Problem) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw Problem(description: "\(path) exists and is not a socket; refusing to replace it")
        }
        do {
            _ = try UnixSocketConnection.connect(path: path)
            throw Problem(description: "another menud is already running on \(path)")
        } catch let failure as UnixSocketConnection.Failure where failure.isNotListening {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw Problem(
                    description: "cannot remove stale socket \(path): \(String(cString: strerror(errno)))")
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "cannot probe \(path): \(error)")
        }
    }

    /// Owner-only access; the peer-credential check is the second line of defence.
    func restrictMode() throws(Problem) {
        guard chmod(path, 0o600) == 0 else {
            throw Problem(description: "cannot chmod \(path): \(String(cString: strerror(errno)))")
        }
    }

    func remove() { unlink(path) }
}
