/// Gathers the lines of a reply until its terminator: the client's half of the rule
/// "zero or more data lines, then exactly one terminator".
public struct ReplyReader: Sendable {
    private var lines: [String] = []

    public init() {}

    /// Takes the next line of a reply; returns the whole reply once `line` ends it.
    public mutating func read(_ line: String) -> ProtocolReply? {
        guard ProtocolReply.isTerminator(line) else {
            lines.append(line)
            return nil
        }
        defer { lines = [] }
        return ProtocolReply(lines: lines, terminator: line)
    }
}
