import MenuClient
import MenuCore
import MenuProtocol
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to menud for one command: connect, check the greeting, send, read.
enum DaemonSession {
    static func socketPath(_ options: GlobalOptions) -> String { socketPath(explicit: options.socket) }

    /// The socket given, else the default one.
    static func socketPath(explicit: String?) -> String {
        explicit
            ?? DefaultSocketPath.resolve(
                environment: { name in getenv(name).map { String(cString: $0) } }, uid: getuid())
    }

    /// Sends `lines` (each one request line) and returns the last reply, failing with
    /// exit status 1 on `ERR` and 3 when the daemon cannot be reached. Earlier replies
    /// are ignored: only batches send more than one line, and they answer once.
    static func send(_ lines: [String], options: GlobalOptions) throws(ClientFailure) -> ProtocolReply {
        try exchange(lines, replies: 1, options: options)[0]
    }

    /// Sends requests that are each answered, pipelined on one connection, and
    /// returns their replies in order; fails like ``send(_:options:)`` on the first ERR.
    static func requests(_ lines: [String], options: GlobalOptions) throws(ClientFailure) -> [ProtocolReply] {
        try exchange(lines, replies: lines.count, options: options)
    }

    /// Sends `lines` pipelined and reads `count` replies: for lines not all answered
    /// (a batch's `begin` and the requests in it).
    static func exchange(_ lines: [String], replies count: Int, options: GlobalOptions)
        throws(ClientFailure) -> [ProtocolReply]
    {
        try exchange(lines, replies: count, socket: socketPath(options))
    }

    /// `timeout` bounds each wait for the daemon, for callers that must not hang on
    /// a daemon that accepts and never answers (a shell waiting for completions).
    static func exchange(_ lines: [String], replies count: Int, socket path: String, timeout: Int? = nil)
        throws(ClientFailure) -> [ProtocolReply]
    {
        let connection: UnixSocketConnection
        do {
            connection = try UnixSocketConnection.connectToOwnDaemon(path: path)
        } catch let failure as UnixSocketConnection.Failure {
            throw .cannotConnect(path, failure)
        } catch {
            throw .unreachable(path, "\(error)")
        }
        if let timeout { connection.setReceiveTimeout(seconds: timeout) }
        do {
            let greeting = try connection.readGreeting()
            if greeting.hasPrefix("ERR ") {
                throw ClientFailure(status: ExitStatus.daemonError, message: describe(greeting))
            }
            guard greeting.hasPrefix("OK MENUD ") else {
                throw ClientFailure.unreachable(path, "not a menud socket (greeting: \(greeting))")
            }
            try connection.send(lines.map { $0 + "\n" }.joined())
            connection.finishSending()
            var replies: [ProtocolReply] = []
            for _ in 0..<count {
                let reply = try connection.readReply()
                if !reply.isOK {
                    throw ClientFailure(status: ExitStatus.daemonError, message: describe(reply.terminator))
                }
                replies.append(reply)
            }
            return replies
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw .unreachable(path, "\(error)")
        }
    }

    /// `ERR code message` as `code: message`, with the message's escapes undone.
    static func describe(_ terminator: String) -> String {
        let reply = ProtocolReply(lines: [], terminator: terminator)
        let message = ProtocolFields.unescape(Substring(reply.errorMessage ?? ""))
        return "\(reply.errorCode ?? "error"): \(message)"
    }
}
