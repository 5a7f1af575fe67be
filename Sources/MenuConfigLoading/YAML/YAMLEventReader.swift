import CYAML
import MenuCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pulls events from libyaml one at a time. Decoding straight from the event stream
/// keeps memory flat and avoids a YAML DOM; this type also enforces what the loader
/// refuses at the YAML level (anchors, aliases, tags, excessive nesting) so that
/// decoding code only ever sees plain trees of bounded depth.
///
/// The last event stays alive in libyaml's memory until the next one is pulled, so
/// that a scalar's bytes can be looked at in place: most scalars are keys, which are
/// only compared, and a `String` is made only for text that is kept or reported.
final class YAMLEventReader {
    /// Deepest YAML nesting accepted. Far beyond any real menu; it exists so that a
    /// hostile `[[[[…` fails at once instead of exhausting memory.
    static let maxDepth = 256

    let file: String
    /// Problems that do not stop reading (tags), merged into the loader's errors.
    var problems: [ConfigError] = []
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The last event pulled, owned until the next pull. Fixed storage rather than a
    /// stored property, which every `&` would check for exclusive access.
    private let event: UnsafeMutablePointer<yaml_event_t>
    private var holdsEvent = false
    private let input: YAMLInput
    private var depth = 0

    var inputSize: Int? { input.size }

    init(input: YAMLInput, file: String) {
        self.file = file
        self.input = input
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        input.attach(to: parser)
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        event.deallocate()
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event; the stream start is consumed silently. A scalar's text can be
    /// read through ``bytes``, ``text`` and ``scalar`` until the next call.
    func next() throws(LoadStop) -> YAMLEvent {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        while true {
            guard yaml_parser_parse(parser, event) == 1 else { throw syntaxError() }
            let type = event.pointee.type
            if type == YAML_STREAM_START_EVENT || type == YAML_NO_EVENT {
                yaml_event_delete(event)
                continue
            }
            break
        }
        holdsEvent = true
        // Fields are read through the pointer: a copy of the whole event costs more
        // than everything else here.
        let mark = SourceMark(event.pointee.start_mark)
        switch event.pointee.type {
        case YAML_SCALAR_EVENT:
            let s = event.pointee.data.scalar
            if s.anchor != nil { throw anchorError(mark) }
            if s.tag != nil { tagProblem(mark) }
            let plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.tag == nil
            return YAMLEvent(
                kind: .scalar, mark: mark, isPlain: plain,
                isNull: plain && YAMLEventReader.isNull(s.value, s.length))
        case YAML_MAPPING_START_EVENT:
            if event.pointee.data.mapping_start.anchor != nil { throw anchorError(mark) }
            if event.pointee.data.mapping_start.tag != nil { tagProblem(mark) }
            try enter(mark)
            return YAMLEvent(kind: .mappingStart, mark: mark)
        case YAML_MAPPING_END_EVENT:
            depth -= 1
            return YAMLEvent(kind: .mappingEnd, mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            if event.pointee.data.sequence_start.anchor != nil { throw anchorError(mark) }
            if event.pointee.data.sequence_start.tag != nil { tagProblem(mark) }
            try enter(mark)
            return YAMLEvent(kind: .sequenceStart, mark: mark)
        case YAML_SEQUENCE_END_EVENT:
            depth -= 1
            return YAMLEvent(kind: .sequenceEnd, mark: mark)
        case YAML_DOCUMENT_START_EVENT: return YAMLEvent(kind: .documentStart, mark: mark)
        case YAML_DOCUMENT_END_EVENT: return YAMLEvent(kind: .documentEnd, mark: mark)
        case YAML_STREAM_END_EVENT: return YAMLEvent(kind: .streamEnd, mark: mark)
        default: throw anchorError(mark)  // an alias, the one type left
        }
    }

    /// Nothing, `~` or `null` in one of the three spellings YAML allows. Inlined:
    /// every scalar asks, and most answer from their length alone.
    @inline(__always) private static func isNull(_ p: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard let p else { return true }
        switch count {
        case 0: return true
        case 1: return p[0] == UInt8(ascii: "~")
        case 4:
            let word = (p[0], p[1], p[2], p[3])
            let (n, u, l) = (UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"))
            let (bigN, bigU, bigL) = (UInt8(ascii: "N"), UInt8(ascii: "U"), UInt8(ascii: "L"))
            return word == (n, u, l, l) || word == (bigN, u, l, l) || word == (bigN, bigU, bigL, bigL)
        default: return false
        }
    }

    /// The bytes of the last event, which must be a scalar.
    var bytes: UnsafeBufferPointer<UInt8> {
        let s = event.pointee.data.scalar
        return UnsafeBufferPointer(start: s.value, count: s.length)
    }

    /// The text of the last event, which must be a scalar.
    var text: String {
        let b = bytes
        guard let base = b.baseAddress, !b.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: b.count) { out in
            out.baseAddress!.initialize(from: base, count: b.count)
            return b.count
        }
    }

    /// The last event's text and style, to keep past the next event.
    func scalar(_ event: YAMLEvent) -> YAMLScalar {
        YAMLScalar(text: text, isPlain: event.isPlain, isNull: event.isNull)
    }

    /// The node key the last event, a scalar, spells.
    var nodeKey: NodeKey? { NodeKey(utf8: bytes) }

    /// How an error message names `event`, which must be the last one pulled, after "got".
    func summary(_ event: YAMLEvent) -> String {
        event.kind == .scalar ? scalar(event).summary : event.collectionSummary
    }

    /// Consumes the rest of a value whose first event is `first`, without recursion
    /// so that junk of any shape is skipped in constant stack.
    func skip(_ first: YAMLEvent) throws(LoadStop) {
        guard first.kind == .sequenceStart || first.kind == .mappingStart else { return }
        var open = 1
        while open > 0 {
            switch try next().kind {
            case .sequenceStart, .mappingStart: open += 1
            case .sequenceEnd, .mappingEnd: open -= 1
            default: break
            }
        }
    }

    private func enter(_ mark: SourceMark) throws(LoadStop) {
        depth += 1
        if depth > YAMLEventReader.maxDepth {
            throw LoadStop(
                error: ConfigError(
                    file: file, mark: mark,
                    message: "YAML is nested deeper than \(YAMLEventReader.maxDepth) levels"),
                isSyntax: false)
        }
    }

    private func anchorError(_ mark: SourceMark) -> LoadStop {
        LoadStop(
            error: ConfigError(file: file, mark: mark, message: "anchors and aliases are not supported"),
            isSyntax: false)
    }

    private func tagProblem(_ mark: SourceMark) {
        problems.append(ConfigError(file: file, mark: mark, message: "YAML tags are not supported"))
    }

    private func syntaxError() -> LoadStop {
        let p = parser.pointee
        if let code = input.readError {
            let reason = String(cString: strerror(code))
            return LoadStop(
                error: ConfigError(
                    file: file, mark: SourceMark(line: 1, column: 1), message: "cannot read config: \(reason)"
                ),
                isSyntax: true)
        }
        // Only the error paths below need the text itself.
        let input = self.input.text()
        let problem = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        var mark: SourceMark
        if p.error == YAML_READER_ERROR {
            // Reader errors (bad encoding, control characters) carry only a byte offset.
            mark = position(ofByte: p.problem_offset, in: input)
        } else {
            mark = SourceMark(p.problem_mark)
        }
        var message = "invalid YAML: \(problem)"
        if p.error == YAML_READER_ERROR, p.problem_value != -1 {
            message += " (byte 0x\(String(UInt(bitPattern: Int(p.problem_value)), radix: 16)))"
        }
        var contextMark: SourceMark?
        if let context = p.context {
            let at = SourceMark(p.context_mark)
            contextMark = at
            message += " (\(String(cString: context)) at \(at.line):\(at.column))"
        }
        if p.error != YAML_READER_ERROR,
            let hint = YAMLSyntaxHint.hint(
                problem: problem, context: p.context.map { String(cString: $0) }, at: contextMark)
        {
            message += "; " + hint
        }
        if isTabInIndentation(
            at: p.error == YAML_READER_ERROR ? p.problem_offset : p.problem_mark.index, in: input)
        {
            message = "tab in indentation; use spaces"
        }
        return LoadStop(error: ConfigError(file: file, mark: mark, message: message), isSyntax: true)
    }

    /// YAML forbids tabs for indentation and libyaml's wording for it is cryptic,
    /// while it is the most common mistake in hand-written files.
    private func isTabInIndentation(at offset: Int, in input: [UInt8]) -> Bool {
        guard offset < input.count, input[offset] == UInt8(ascii: "\t") else { return false }
        var i = offset
        while i > 0 {
            let b = input[i - 1]
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { return true }
            if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") { return false }
            i -= 1
        }
        return true
    }

    /// Line and column (in characters, as libyaml counts) of a byte offset.
    private func position(ofByte offset: Int, in input: [UInt8]) -> SourceMark {
        var line = 1
        var column = 1
        var i = 0
        let end = min(offset, input.count)
        while i < end {
            let b = input[i]
            if b == UInt8(ascii: "\n")
                || (b == UInt8(ascii: "\r") && (i + 1 >= input.count || input[i + 1] != UInt8(ascii: "\n")))
            {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80, b != UInt8(ascii: "\r") {
                column += 1
            }
            i += 1
        }
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF, line == 1, offset >= 3 {
            column -= 1
        }
        return SourceMark(line: line, column: column)
    }
}

extension SourceMark {
    /// libyaml counts from 0; editors and our messages count from 1.
    init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}
