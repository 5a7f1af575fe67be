/// Whole replies on their way to a client, as protocol bytes. Every reply is zero or
/// more data lines, then exactly one terminator: `OK`, `OK <greeting>` or
/// `ERR <code> <message>`. Terminators are written only here, so the framing rule
/// "exactly one terminator per request" lives in one place.
///
/// Bytes rather than a value per reply: the dispatcher writes the replies to all the
/// requests of one read into one of these, and its commands write their data lines
/// straight into it, so a short `get` needs no buffer and no copy of its own.
public struct Replies: Sendable {
    /// The bytes so far: ended replies, then the data lines of the one being written.
    public var lines = RecordWriter()
    /// How many replies have been ended.
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { lines.isEmpty }

    /// Ends the current reply with `OK`.
    public mutating func ok() {
        lines.appendOK()
        count += 1
    }

    /// Ends the current reply with `ERR`.
    public mutating func error(_ error: ProtocolError) {
        lines.append(line: error.line)
        count += 1
    }

    /// The greeting: the only terminator carrying text after `OK`.
    public mutating func greeting(_ text: String) {
        lines.append(line: "OK \(text)")
        count += 1
    }

    public static func error(_ error: ProtocolError) -> Replies {
        var replies = Replies()
        replies.error(error)
        return replies
    }
}
