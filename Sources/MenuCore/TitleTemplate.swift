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
