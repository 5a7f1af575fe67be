/// One word of a protocol request. `quoted` is kept because an unquoted word that
/// starts with `--` is a flag, while a quoted one is always an argument: that is how a
/// value such as `--x` reaches `set` without a separate escape rule.
public struct ProtocolWord: Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var quoted: Bool

    public init(_ text: String, quoted: Bool = false) {
        self.text = text
        self.quoted = quoted
    }

    public var description: String { text }

    /// Whether this word names a flag rather than being an argument.
    public var isFlag: Bool { !quoted && text.hasPrefix("--") }
}

/// Splitting a request line into words and quoting words back into a line. It lives
/// here, in one place, so that the daemon's parser and menuctl's writer cannot drift.
///
/// The rule is mpd's: words are separated by blanks (space, tab); a word that starts
/// with `"` runs to the next unescaped `"`, and inside it a backslash takes the next
/// character literally. Unquoted words have no escapes.
public enum ProtocolWords {
    public enum SplitError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A quoted word has no closing quote.
        case unbalancedQuote(column: Int)
        /// A closing quote is followed by something other than a blank.
        case junkAfterQuote(column: Int)
        /// A `"` appears in the middle of an unquoted word, where it would be ambiguous.
        case strayQuote(column: Int)

        public var description: String {
            switch self {
            case .unbalancedQuote(let c): return "unbalanced quote starting at column \(c)"
            case .junkAfterQuote(let c): return "closing quote must end the word (column \(c))"
            case .strayQuote(let c):
                return "quote inside an unquoted word (column \(c)): quote the whole word"
            }
        }
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The words of one request line (without its line terminator). Works on UTF-8
    /// bytes: every byte the rule cares about is ASCII, and ASCII bytes never occur
    /// inside a multi-byte UTF-8 sequence, so characters are never split.
    public static func split(_ line: String) throws(SplitError) -> [ProtocolWord] {
        var line = line
        // One pass over the string's own bytes: unquoted words (nearly all of them)
        // become Strings straight from a slice, with no copy of the line in between.
        let result = line.withUTF8 { bytes in
            Result { () throws(SplitError) in try split(bytes: bytes) }
        }
        return try result.get()
    }

    /// ``split(_:)`` on bytes already known to be UTF-8 (``RequestWords`` holds the rule).
    public static func split(bytes: UnsafeBufferPointer<UInt8>) throws(SplitError) -> [ProtocolWord] {
        var words = RequestWords()
        try words.split(bytes)
        return (0..<words.count).map(words.word)
    }

    /// Whether `word` can travel in a request at all: a newline always ends the line.
    public static func canEncode(_ word: String) -> Bool { !word.utf8.contains(UInt8(ascii: "\n")) }

    /// `word` as an argument: bare when that reads back the same, else in quotes. Words
    /// starting with `-` are quoted so that they are never taken for flags.
    public static func quote(_ word: String) -> String {
        let needsQuotes =
            word.isEmpty || word.hasPrefix("-")
            || word.utf8.contains { $0 == space || $0 == tab || $0 == quote || $0 == backslash || $0 < 0x20 }
        guard needsQuotes else { return word }
        var out = "\""
        for ch in word.unicodeScalars {
            if ch == "\"" || ch == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(ch)
        }
        out += "\""
        return out
    }

    /// A request line: the command name and flags as they are, the arguments quoted.
    public static func request(_ command: String, flags: [String] = [], arguments: [String] = []) -> String {
        ([command] + flags + arguments.map(quote)).joined(separator: " ")
    }
}
