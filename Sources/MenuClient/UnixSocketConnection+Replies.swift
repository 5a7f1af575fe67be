import MenuProtocol

extension UnixSocketConnection {
    public struct ProtocolFailure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads the greeting; returns it (`OK MENUD 1`) or the daemon's `ERR` line.
    public func readGreeting() throws -> String {
        guard let line = try readLine() else {
            throw ProtocolFailure(description: "the daemon closed the connection without a greeting")
        }
        return line
    }

    /// Reads one whole response.
    public func readReply() throws -> ProtocolReply {
        var reader = ReplyReader()
        while let line = try readLine() {
            if let reply = reader.read(line) { return reply }
        }
        throw ProtocolFailure(description: "the daemon closed the connection in the middle of a reply")
    }
}
