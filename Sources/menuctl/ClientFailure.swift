import MenuClient

#if canImport(Glibc)
    import Glibc
#endif

/// A failure after the command line was understood, with the exit status it maps to.
struct ClientFailure: Error {
    var status: Int32
    var message: String

    static func unreachable(_ path: String, _ reason: String) -> ClientFailure {
        ClientFailure(status: ExitStatus.unreachable, message: "cannot reach menud at \(path): \(reason)")
    }

    /// Says what a failed connect most likely means, since "No such file or
    /// directory" alone does not tell a user whether to start menud or restart it.
    static func cannotConnect(_ path: String, _ failure: UnixSocketConnection.Failure) -> ClientFailure {
        switch failure.errno {
        case ENOENT:
            return unreachable(
                path,
                "no socket there (menud is not running, or its socket file was deleted and it must be restarted)"
            )
        case ECONNREFUSED:
            return unreachable(
                path, "nobody is listening (the socket was left by a menud that is no longer running)")
        case EACCES:
            return unreachable(path, "permission denied (the socket belongs to another user)")
        default:
            return unreachable(path, failure.description)
        }
    }
}
