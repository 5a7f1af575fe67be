/// A request as the dispatcher sees it: its words, or why it has none.
public enum Request: Sendable {
    case words(RequestWords)
    /// The line could not be read as words; the dispatcher answers (or fails the
    /// current batch) with this error, so batches see framing errors in order too.
    case invalid(ProtocolError)

    /// The longest request line, in bytes without its newline (docs/protocol.md).
    public static let maximumLineLength = 64 * 1024

    /// The error for a line over ``maximumLineLength``.
    public static let tooLong = Request.invalid(
        ProtocolError(.lineTooLong, "a request line may hold at most \(maximumLineLength) bytes"))

    /// Reads one framed line into words of its own (``RequestWords/read(_:)``). A
    /// blank line is nil, so typing Enter in `nc` does nothing instead of producing
    /// an error.
    public init?(line bytes: UnsafeBufferPointer<UInt8>) {
        var words = RequestWords()
        if let error = words.read(bytes) {
            self = .invalid(error)
        } else if words.isEmpty {
            return nil
        } else {
            self = .words(words)
        }
    }
}
