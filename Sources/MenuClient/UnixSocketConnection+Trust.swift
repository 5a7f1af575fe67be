import MenuSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnixSocketConnection {
    /// Why a client must not talk to the socket at `path`: its directory fails
    /// ``SocketDirectory/problem(_:)``, or whoever listens is another user.
    public struct Untrusted: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Connects to `path` as ``connect(path:)`` does, once its directory has passed
    /// ``SocketDirectory/problem(_:)``, and makes sure the peer is the same user.
    public static func connectToOwnDaemon(path: String) throws -> UnixSocketConnection {
        // A path no socket can have says so first, as ``connect(path:)`` would.
        guard path.utf8.count <= UnixSocketAddress.maxPathLength else {
            throw Failure(operation: "socket path too long", errno: ENAMETOOLONG)
        }
        if let problem = SocketDirectory.problem(SocketDirectory.of(path)) {
            throw Untrusted(description: problem)
        }
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
}
