/// One request to one server: a row of the socket section, driven alone so that
/// each request has its own throughput and latency.
struct SocketCase {
    /// The server as the table names it: `menud`, `mpd`, `redis`, a floor.
    var server: String
    /// The request as the table shows it.
    var request: String
    var socket: String
    var dialect: ReplyFraming.Dialect
    /// The request's bytes, terminator included.
    var line: [UInt8]

    init(_ server: String, _ request: String, socket: String, dialect: ReplyFraming.Dialect) {
        self.server = server
        self.request = request
        self.socket = socket
        self.dialect = dialect
        line = Array((request + (dialect == .redis ? "\r\n" : "\n")).utf8)
    }

    var name: String { "\(server) `\(request)`" }
}
