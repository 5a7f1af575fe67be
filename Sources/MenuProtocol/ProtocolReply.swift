/// One response read off the wire: its data lines and its terminator.
public struct ProtocolReply: Sendable, Hashable {
    public var lines: [String]
    /// `OK`, or `ERR <code> <message>`.
    public var terminator: String

    public var isOK: Bool { terminator == "OK" }
    /// The error code of an `ERR` terminator.
    public var errorCode: String? {
        guard terminator.hasPrefix("ERR ") else { return nil }
        return terminator.dropFirst(4).split(separator: " ", maxSplits: 1).first.map(String.init)
    }
    /// The message of an `ERR` terminator, still escaped as on the wire.
    public var errorMessage: String? {
        guard terminator.hasPrefix("ERR ") else { return nil }
        let parts = terminator.dropFirst(4).split(separator: " ", maxSplits: 1)
        return parts.count > 1 ? String(parts[1]) : ""
    }

    public init(lines: [String], terminator: String) {
        self.lines = lines
        self.terminator = terminator
    }

    /// Whether `line` ends a response. Data lines always begin with a lowercase record
    /// tag, so they can never be taken for a terminator.
    public static func isTerminator(_ line: String) -> Bool { line == "OK" || line.hasPrefix("ERR ") }
}
