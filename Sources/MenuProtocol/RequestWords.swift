/// The words of one request line, read into storage that is kept from one line to
/// the next: the daemon reads every line of a connection into the same one, so a
/// request costs no array and no `String` per word, and a handler reads its
/// arguments as bytes (a path is looked up from them, ``MenuCore/MenuModel/node(atPath:)``).
///
/// The split rule is ``ProtocolWords``' (mpd's), written down once, here.
public struct RequestWords: Sendable {
    /// The words' bytes one after another, quoted words with their escapes undone.
    private var storage: [UInt8] = []
    private var spans: [Span] = []

    private struct Span: Sendable {
        var start: Int32
        var end: Int32
        var quoted: Bool
    }

    public init() {}

    /// The words of `words`, as if read from a line.
    public init(_ words: [ProtocolWord]) {
        for word in words {
            let start = storage.count
            storage.append(contentsOf: word.text.utf8)
            spans.append(Span(start: Int32(start), end: Int32(storage.count), quoted: word.quoted))
        }
    }

    public var count: Int { spans.count }
    public var isEmpty: Bool { spans.isEmpty }

    /// Word `i`'s bytes, valid during `body`.
    public func withBytes<Result>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        let span = spans[i]
        return try storage.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[Int(span.start)..<Int(span.end)]))
        }
    }

    /// Word `i` as a `String`: no allocation for up to 15 bytes (a command name, a
    /// number), one for longer words.
    public func text(_ i: Int) -> String { withBytes(i) { String(decoding: $0, as: UTF8.self) } }

    public func word(_ i: Int) -> ProtocolWord { ProtocolWord(text(i), quoted: spans[i].quoted) }

    /// Whether word `i` is a flag: unquoted and starting with `--`.
    public func isFlag(_ i: Int) -> Bool {
        let span = spans[i]
        return !span.quoted && span.end - span.start >= 2 && storage[Int(span.start)] == UInt8(ascii: "-")
            && storage[Int(span.start) + 1] == UInt8(ascii: "-")
    }

    /// Reads one framed line (without its terminator), replacing the words before:
    /// checks that it is UTF-8 without control characters and splits it. Returns the
    /// error the line is answered with, or nil; a blank line has no words.
    ///
    /// Control characters other than tab are refused rather than passed on: no path
    /// holds one, and in a value a NUL would be cut short on its way into a command's
    /// environment, and a lone `\r` or an escape sequence would garble every status
    /// bar and log that shows it.
    public mutating func read(_ line: UnsafeBufferPointer<UInt8>) -> ProtocolError? {
        storage.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        var ascii = true
        var control: UInt8?
        for byte in line {
            if byte >= 0x80 {
                ascii = false
            } else if control == nil, Self.isForbiddenControl(byte) {
                control = byte
            }
        }
        if !ascii && String(validating: line, as: UTF8.self) == nil {
            return ProtocolError(.badRequest, "request is not valid UTF-8")
        }
        if let control { return Self.controlCharacter(control) }
        do throws(ProtocolWords.SplitError) {
            try split(line)
        } catch {
            storage.removeAll(keepingCapacity: true)
            spans.removeAll(keepingCapacity: true)
            return ProtocolError(.badRequest, "\(error)")
        }
        return nil
    }

    /// Splits `bytes`, known to be UTF-8. Works on bytes: every byte the rule cares
    /// about is ASCII, and ASCII bytes never occur inside a multi-byte UTF-8
    /// sequence, so characters are never split.
    mutating func split(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolWords.SplitError) {
        storage.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        // Room for a line's words at once, kept for the lines after.
        if storage.capacity < bytes.count { storage.reserveCapacity(max(bytes.count, 64)) }
        var i = 0
        while i < bytes.count {
            if Self.isBlank(bytes[i]) {
                i += 1
                continue
            }
            let start = storage.count
            if bytes[i] == Self.quote {
                let column = i + 1
                i += 1
                var closed = false
                while i < bytes.count {
                    let b = bytes[i]
                    if b == Self.backslash, i + 1 < bytes.count {
                        storage.append(bytes[i + 1])
                        i += 2
                    } else if b == Self.quote {
                        closed = true
                        i += 1
                        break
                    } else {
                        storage.append(b)
                        i += 1
                    }
                }
                guard closed else { throw .unbalancedQuote(column: column) }
                if i < bytes.count, !Self.isBlank(bytes[i]) { throw .junkAfterQuote(column: i + 1) }
                spans.append(Span(start: Int32(start), end: Int32(storage.count), quoted: true))
            } else {
                let first = i
                while i < bytes.count, !Self.isBlank(bytes[i]) {
                    if bytes[i] == Self.quote { throw .strayQuote(column: i + 1) }
                    i += 1
                }
                storage.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first..<i]))
                spans.append(Span(start: Int32(start), end: Int32(storage.count), quoted: false))
            }
        }
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    private static func isBlank(_ b: UInt8) -> Bool { b == space || b == tab }

    private static func controlCharacter(_ control: UInt8) -> ProtocolError {
        let hex = String(control, radix: 16, uppercase: true)
        let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return ProtocolError(.badRequest, "request contains the control character \(name)")
    }

    /// C0 controls and DEL, except tab, which separates words.
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}
