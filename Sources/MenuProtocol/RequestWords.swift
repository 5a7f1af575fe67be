/// The words of one request line, read into storage that is kept from one line to
/// the next: the daemon reads every line of a connection into the same one, so a
/// request costs no array and no `String` per word, and a handler reads its
/// arguments as bytes (a path is looked up from them, ``MenuCore/MenuModel/node(atPath:)``).
///
/// The split rule is ``ProtocolWords``' (mpd's), written down once, here.
public struct RequestWords: Sendable {
    /// The words' bytes and spans, shared by copies until one of them reads a line.
    // Usable from inline code so that ``withBytes(_:_:)``, which every handler calls
    // across the module boundary, is specialized and inlined there.
    @usableFromInline var storage: Storage

    @usableFromInline struct Span: Sendable {
        @usableFromInline var start: Int32
        @usableFromInline var end: Int32
        @usableFromInline var quoted: Bool
    }

    /// Memory of its own rather than two arrays: emptying an array for the next line,
    /// and appending to it, costs a uniqueness check and the generic path of
    /// `replaceSubrange` or `append(contentsOf:)` each time, several times the work of
    /// splitting a short request. A line's words take at most its own length in bytes,
    /// so the bytes are sized once per line and written with no check per byte.
    @usableFromInline final class Storage: @unchecked Sendable {
        // Mutated only through a uniquely referenced ``RequestWords`` (``prepare(for:)``),
        // never during an access of its own: the runtime's exclusivity checks, a call
        // per access in this module's release build, would cost more than the split.
        @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) @usableFromInline var spans: UnsafeMutablePointer<Span>
        @exclusivity(unchecked) @usableFromInline var count = 0
        @exclusivity(unchecked) var byteCount = 0
        @exclusivity(unchecked) var byteCapacity: Int
        @exclusivity(unchecked) var spanCapacity: Int

        init(byteCapacity: Int, spanCapacity: Int = 4) {
            self.byteCapacity = byteCapacity
            self.spanCapacity = spanCapacity
            bytes = .allocate(capacity: byteCapacity)
            spans = .allocate(capacity: spanCapacity)
        }

        deinit {
            bytes.deallocate()
            spans.deallocate()
        }

        /// Empties the words and makes room for a line of `length` bytes.
        func reset(for length: Int) {
            count = 0
            byteCount = 0
            guard length > byteCapacity else { return }
            bytes.deallocate()
            byteCapacity = max(length, 2 * byteCapacity)
            bytes = .allocate(capacity: byteCapacity)
        }

        /// Ends a word that began at `start` in ``bytes``.
        @inline(__always)
        func endWord(from start: Int, quoted: Bool) {
            if count == spanCapacity {
                let grown = UnsafeMutablePointer<Span>.allocate(capacity: 2 * spanCapacity)
                grown.moveInitialize(from: spans, count: count)
                spans.deallocate()
                spans = grown
                spanCapacity *= 2
            }
            // A line is far shorter than 2 GiB (``Request/maximumLineLength``).
            (spans + count).initialize(
                to: Span(
                    start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: byteCount),
                    quoted: quoted))
            count += 1
        }
    }

    public init() { storage = Storage(byteCapacity: 64) }

    /// The words of `words`, as if read from a line.
    public init(_ words: [ProtocolWord]) {
        storage = Storage(byteCapacity: max(1, words.reduce(0) { $0 + $1.text.utf8.count }))
        for word in words {
            let start = storage.byteCount
            for byte in word.text.utf8 {
                storage.bytes[storage.byteCount] = byte
                storage.byteCount += 1
            }
            storage.endWord(from: start, quoted: word.quoted)
        }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.count == 0 }

    /// Word `i`'s bytes, valid during `body`.
    @inlinable
    public func withBytes<Result>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        precondition(i >= 0 && i < storage.count, "word index out of range")
        let span = storage.spans[i]
        return try body(
            UnsafeBufferPointer(start: storage.bytes + Int(span.start), count: Int(span.end - span.start)))
    }

    /// Word `i` as a `String`: no allocation for up to 15 bytes (a command name, a
    /// number), one for longer words.
    public func text(_ i: Int) -> String { withBytes(i) { String(decoding: $0, as: UTF8.self) } }

    public func word(_ i: Int) -> ProtocolWord { ProtocolWord(text(i), quoted: storage.spans[i].quoted) }

    /// Whether word `i` is a flag: unquoted and starting with `--`.
    public func isFlag(_ i: Int) -> Bool {
        precondition(i >= 0 && i < storage.count, "word index out of range")
        let span = storage.spans[i]
        return !span.quoted && span.end - span.start >= 2
            && storage.bytes[Int(span.start)] == UInt8(ascii: "-")
            && storage.bytes[Int(span.start) + 1] == UInt8(ascii: "-")
    }

    /// Whether any word after the first is a flag (``isFlag(_:)``). Inlinable: the
    /// daemon asks for every request.
    @inlinable public var hasFlags: Bool {
        let spans = storage.spans
        let bytes = storage.bytes
        var i = 1
        while i < storage.count {
            let span = spans[i]
            if !span.quoted, span.end - span.start >= 2, bytes[Int(span.start)] == UInt8(ascii: "-"),
                bytes[Int(span.start) + 1] == UInt8(ascii: "-")
            {
                return true
            }
            i += 1
        }
        return false
    }

    /// Empties the words, in storage of this value's own, with room for `length` bytes.
    @inline(__always)
    private mutating func prepare(for length: Int) {
        if isKnownUniquelyReferenced(&storage) {
            storage.reset(for: length)
        } else {
            storage = Storage(byteCapacity: max(length, 16))
        }
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
        prepare(for: line.count)
        // Checked and split in one pass; a line that fails both ways is named by its
        // encoding first, then by its control character, then by its quotes.
        var unusual = Unusual()
        let splitError = Self.split(line, into: storage, noting: &unusual)
        guard splitError != nil || unusual.any else { return nil }
        if splitError != nil {
            // The split stopped short: what it did not see is checked too.
            unusual = Unusual()
            for byte in line where Unusual.isUnusual(byte) { unusual.note(byte) }
        }
        if unusual.nonASCII && String(validating: line, as: UTF8.self) == nil {
            storage.count = 0
            return ProtocolError(.badRequest, "request is not valid UTF-8")
        }
        if let control = unusual.control {
            storage.count = 0
            return Self.controlCharacter(control)
        }
        if let splitError {
            storage.count = 0
            return ProtocolError(.badRequest, "\(splitError)")
        }
        return nil
    }

    /// Splits `bytes`, known to be UTF-8, replacing the words before. Works on bytes:
    /// every byte the rule cares about is ASCII, and ASCII bytes never occur inside a
    /// multi-byte UTF-8 sequence, so characters are never split.
    mutating func split(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolWords.SplitError) {
        prepare(for: bytes.count)
        var unusual = Unusual()
        if let error = Self.split(bytes, into: storage, noting: &unusual) {
            storage.count = 0
            throw error
        }
    }

    /// The bytes outside printable ASCII seen in a line: most lines have none.
    private struct Unusual {
        var nonASCII = false
        var control: UInt8?

        var any: Bool { nonASCII || control != nil }

        @inline(__always) static func isUnusual(_ byte: UInt8) -> Bool { byte &- 0x20 >= 0x5F }

        mutating func note(_ byte: UInt8) {
            if byte >= 0x80 {
                nonASCII = true
            } else if control == nil, RequestWords.isForbiddenControl(byte) {
                control = byte
            }
        }
    }

    /// The split itself, into `storage` emptied and sized for `line`, noting every byte
    /// it passes that is not printable ASCII; the error stops it there.
    @inline(__always)
    private static func split(
        _ line: UnsafeBufferPointer<UInt8>, into storage: Storage, noting unusual: inout Unusual
    ) -> ProtocolWords.SplitError? {
        guard let base = line.baseAddress else { return nil }
        let n = line.count
        let out = storage.bytes
        var written = 0
        var i = 0
        while i < n {
            let first = base[i]
            if Unusual.isUnusual(first) { unusual.note(first) }
            if isBlank(first) {
                i += 1
                continue
            }
            let start = written
            if first == quote {
                let column = i + 1
                i += 1
                var closed = false
                while i < n {
                    var b = base[i]
                    if Unusual.isUnusual(b) { unusual.note(b) }
                    if b == quote {
                        closed = true
                        i += 1
                        break
                    }
                    if b == backslash, i + 1 < n {
                        i += 1
                        b = base[i]
                        if Unusual.isUnusual(b) { unusual.note(b) }
                    }
                    out[written] = b
                    written += 1
                    i += 1
                }
                storage.byteCount = written
                guard closed else { return .unbalancedQuote(column: column) }
                if i < n, !isBlank(base[i]) { return .junkAfterQuote(column: i + 1) }
                storage.endWord(from: start, quoted: true)
            } else {
                while i < n {
                    let b = base[i]
                    // One comparison for the bytes of nearly every word: those from `#`
                    // to `~`. Below them are the blanks, the quote, `!` and the controls.
                    if b &- 0x23 >= 0x5C {
                        if isBlank(b) { break }
                        if b == quote {
                            storage.byteCount = written
                            return .strayQuote(column: i + 1)
                        }
                        if Unusual.isUnusual(b) { unusual.note(b) }
                    }
                    out[written] = b
                    written &+= 1
                    i &+= 1
                }
                storage.byteCount = written
                storage.endWord(from: start, quoted: false)
            }
        }
        return nil
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
    fileprivate static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}
