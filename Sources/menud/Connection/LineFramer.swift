import MenuProtocol

/// Splits a connection's byte stream at `\n` (dropping a `\r` before it), enforces
/// the line limit, and reads each line as a ``Request``.
///
/// Lines that arrive whole within one read are read in place, in the read's buffer;
/// only a line split across reads is copied, into ``partial``, until its end comes.
///
/// A client that never sends a newline must not make the daemon buffer without
/// bound, so a line over the limit is reported once and then discarded up to its end,
/// which keeps the connection in step for the next request.
struct LineFramer {
    /// The longest line the daemon keeps, not counting its terminator.
    static let maximumLineLength = Request.maximumLineLength

    /// The start of a line whose end has not come yet.
    private var partial: [UInt8] = []
    /// Whether the line under way was over the limit and is being skipped to its end.
    private var discarding = false

    /// Frames the bytes of one read, appending the requests of its complete lines.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into requests: inout [Request]) {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            defer { start = newline + 1 }
            if !partial.isEmpty {
                partial.append(contentsOf: bytes[start..<newline])
                if discarding {
                    discarding = false
                } else {
                    partial.withUnsafeBufferPointer { Self.read($0, into: &requests) }
                }
                partial.removeAll(keepingCapacity: partial.capacity <= 4096)
                continue
            }
            if discarding {
                discarding = false
                continue
            }
            Self.read(UnsafeBufferPointer(rebasing: bytes[start..<newline]), into: &requests)
        }
        partial.append(contentsOf: bytes[start...])
        // `+ 1` leaves room for a `\r` that may precede the newline still to come.
        if partial.count > Self.maximumLineLength + 1 {
            partial.removeAll()
            if !discarding {
                discarding = true
                requests.append(.tooLong)
            }
        }
    }

    /// At the end of input: a last line without a newline (`printf ping | nc -U`) is
    /// still a request.
    mutating func finish(into requests: inout [Request]) {
        if !partial.isEmpty, !discarding {
            partial.withUnsafeBufferPointer { Self.read($0, into: &requests) }
        }
        partial = []
        discarding = false
    }

    private static func read(_ line: UnsafeBufferPointer<UInt8>, into requests: inout [Request]) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        // A line of exactly the limit plus its `\r` is still within the limit.
        if line.count > maximumLineLength {
            requests.append(.tooLong)
        } else if let request = Request(line: line) {
            requests.append(request)
        }
    }
}
