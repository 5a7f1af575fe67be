/// A title or subtitle with `{value}`, `{title}` and `{a/b}` placeholders, parsed once at
/// load time so that rendering a row never re-scans text.
public struct TitleTemplate: Sendable, Hashable {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// `{value}`: the node's own value.
        case ownValue
        /// `{title}`: the node's own title (only meaningful in a subtitle).
        case ownTitle
        /// `{a/b}`: the value of the node at that absolute path.
        case reference(String)
    }

    public var segments: [Segment]

    public init(segments: [Segment]) { self.segments = segments }

    /// A template with no placeholders.
    public init(literal: String) { self.segments = [.literal(literal)] }

    /// Parses `text`. `{{` and `}}` stand for literal braces; an unclosed `{` is literal too.
    public init(parsing text: String) {
        var text = text
        if let segments = text.withUTF8({ TitleTemplate.asciiSegments($0) }) {
            self.init(segments: segments)
        } else {
            self.init(parsingCharacters: text)
        }
    }

    /// The segments of an all-ASCII text, read byte by byte: big configs have
    /// thousands of templated titles, and walking `Character`s cost more than the
    /// rest of loading each. Nil for other text, where a brace may begin a grapheme
    /// cluster and so not be a brace as ``init(parsingCharacters:)`` sees it.
    private static func asciiSegments(_ b: UnsafeBufferPointer<UInt8>) -> [Segment]? {
        guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        func text(_ range: Range<Int>) -> String { String(decoding: b[range], as: UTF8.self) }
        var segments: [Segment] = []
        var literal = ""
        var start = 0
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == open || c == close, i + 1 < b.count, b[i + 1] == c {
                literal += text(start..<(i + 1))
                i += 2
                start = i
                continue
            }
            if c == open, let end = b[(i + 1)...].firstIndex(of: close) {
                literal += text(start..<i)
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                switch text((i + 1)..<end) {
                case "value": segments.append(.ownValue)
                case "title": segments.append(.ownTitle)
                case let name: segments.append(.reference(name))
                }
                i = end + 1
                start = i
                continue
            }
            i += 1
        }
        literal += text(start..<b.count)
        if !literal.isEmpty || segments.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    /// Parses `text` by `Character`, for text that is not all ASCII.
    init(parsingCharacters text: String) {
        var segments: [Segment] = []
        var literal = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let next = text.index(after: i)
            if c == "{", next < text.endIndex, text[next] == "{" {
                literal.append("{")
                i = text.index(after: next)
                continue
            }
            if c == "}", next < text.endIndex, text[next] == "}" {
                literal.append("}")
                i = text.index(after: next)
                continue
            }
            if c == "{", let close = text[next...].firstIndex(of: "}") {
                let name = String(text[next..<close])
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                switch name {
                case "value": segments.append(.ownValue)
                case "title": segments.append(.ownTitle)
                default: segments.append(.reference(name))
                }
                i = text.index(after: close)
                continue
            }
            literal.append(c)
            i = next
        }
        if !literal.isEmpty || segments.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The paths this template reads, for load-time checks and change tracking.
    public var references: [String] {
        segments.compactMap { if case .reference(let p) = $0 { return p } else { return nil } }
    }

    public var isLiteral: Bool { segments.allSatisfy { if case .literal = $0 { true } else { false } } }
}
