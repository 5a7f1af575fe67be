#if canImport(Glibc)
    import Glibc
#endif

/// Splits a byte stream at `\n` (dropping a `\r` before it), enforces a line limit,
/// and hands each line on, as bytes or as over the limit: the one framer of the
/// protocol, for menud's requests and for a client's replies.
///
/// Lines that arrive whole within one read are handed on in place, in the read's
/// buffer; only a line split across reads is copied, into ``partial``, until its end
/// comes.
///
/// A client that never sends a newline must not make the daemon buffer without
/// bound, so a line over the limit is reported once and then discarded up to its end,
/// which keeps the connection in step for the next request.
public struct LineFramer {
    /// The longest line kept, not counting its terminator: a request's limit for the
    /// daemon; none for a client, whose replies' lines are as long as the menu's text.
    public let maximumLineLength: Int

    /// The start of a line whose end has not come yet.
    private var partial: [UInt8] = []
    /// Whether the line under way was over the limit and is being skipped to its end.
    private var discarding = false

    public init(maximumLineLength: Int = Request.maximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes of a line whose end has not come yet.
    public var pendingByteCount: Int { partial.count }

    /// One framed line.
    public enum Line {
        /// Its bytes, without terminator, valid only during the call.
        case bytes(UnsafeBufferPointer<UInt8>)
        /// Longer than ``maximumLineLength``: answered with ``Request/tooLong``.
        case tooLong

        /// The request this line reads as, with storage of its own; nil when blank.
        public var request: Request? {
            switch self {
            case .bytes(let bytes): return Request(line: bytes)
            case .tooLong: return Request.tooLong
            }
        }
    }

    /// Frames the bytes of one read, handing each complete line to `take`.
    public mutating func feed(_ raw: UnsafeRawBufferPointer, _ take: (Line) -> Void) {
        guard let base = raw.baseAddress else { return }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        var start = 0
        // memchr rather than `firstIndex(of:)` on a slice: the search runs over every
        // byte a client sends, a word at a time.
        while start < bytes.count,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        {
            let newline = base.distance(to: UnsafeRawPointer(found))
            defer { start = newline + 1 }
            if !partial.isEmpty {
                partial.append(contentsOf: bytes[start..<newline])
                if discarding {
                    discarding = false
                } else {
                    partial.withUnsafeBufferPointer { read($0, take) }
                }
                partial.removeAll(keepingCapacity: partial.capacity <= 4096)
                continue
            }
            if discarding {
                discarding = false
                continue
            }
            read(UnsafeBufferPointer(rebasing: bytes[start..<newline]), take)
        }
        if start < bytes.count { partial.append(contentsOf: bytes[start...]) }
        // `+ 1` leaves room for a `\r` that may precede the newline still to come.
        if partial.count - 1 > maximumLineLength {
            partial.removeAll()
            if !discarding {
                discarding = true
                take(.tooLong)
            }
        }
    }

    /// Frames one read as ``feed(_:_:)`` does, but hands on only its last complete
    /// line (and the start of the next is kept): for a reader to whom each line
    /// replaces the one before, as a listener's values do, the lines before it are
    /// not looked at. A line that went over the limit while it arrived was reported
    /// then, by an earlier read.
    public mutating func feedLast(_ raw: UnsafeRawBufferPointer, _ take: (Line) -> Void) {
        // Searched from the end: only the last line or two are walked.
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        guard let last = bytes.lastIndex(of: UInt8(ascii: "\n")),
            let before = bytes[..<last].lastIndex(of: UInt8(ascii: "\n"))
        else { return feed(raw, take) }
        // Every line up to `before` ends in this read and is passed over, with the
        // one under way from earlier reads; that one is still said to be over the
        // limit if it is (only the first line here can be: a read is no longer).
        if !discarding, let first = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            // Its length as `read` counts it: without a `\r` before the newline.
            let beforeNewline = first > 0 ? bytes[first - 1] : partial.last
            let length = partial.count + first - (beforeNewline == UInt8(ascii: "\r") ? 1 : 0)
            if length > maximumLineLength { take(.tooLong) }
        }
        partial.removeAll(keepingCapacity: partial.capacity <= 4096)
        discarding = false
        feed(UnsafeRawBufferPointer(rebasing: raw[(before + 1)...]), take)
    }

    /// At the end of input: a last line without a newline (`printf ping | nc -U`) is
    /// still a request.
    public mutating func finish(_ take: (Line) -> Void) {
        if !partial.isEmpty, !discarding {
            partial.withUnsafeBufferPointer { read($0, take) }
        }
        partial = []
        discarding = false
    }

    private func read(_ line: UnsafeBufferPointer<UInt8>, _ take: (Line) -> Void) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        // A line of exactly the limit plus its `\r` is still within the limit.
        take(line.count > maximumLineLength ? .tooLong : .bytes(line))
    }
}
