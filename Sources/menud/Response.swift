import MenuCore

/// Everything the daemon says back to one request: zero or more data lines, then one
/// terminator. Handlers build these; only ``ResponseEncoder`` turns them into bytes,
/// so the framing rule "exactly one terminator per request" lives in one place.
struct Response: Sendable {
    enum Terminator: Sendable {
        case ok
        case error(ProtocolError)
        /// The greeting, which is the only terminator carrying text after `OK`.
        case greeting(String)
    }

    /// The data lines, as protocol bytes, each ending in a newline.
    var lines: [UInt8]
    var terminator: Terminator

    static func ok(_ lines: RecordWriter = RecordWriter()) -> Response {
        Response(lines: lines.bytes, terminator: .ok)
    }
    static func error(_ error: ProtocolError) -> Response { Response(lines: [], terminator: .error(error)) }
}
