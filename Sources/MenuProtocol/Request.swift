/// A request as the dispatcher sees it: its words, or why it has none.
public enum Request: Sendable {
    case words([ProtocolWord])
    /// The line could not be read as words; the dispatcher answers (or fails the
    /// current batch) with this error, so batches see framing errors in order too.
    case invalid(ProtocolError)

    /// The longest request line, in bytes without its newline (docs/protocol.md).
    public static let maximumLineLength = 64 * 1024

    /// The error for a line over ``maximumLineLength``.
    public static let tooLong = Request.invalid(
        ProtocolError(.lineTooLong, "a request line may hold at most \(maximumLineLength) bytes"))

    /// Reads one framed line: checks that it is UTF-8 without control characters and
    /// splits it into words with the shared ``ProtocolWords`` rule. A blank line is
    /// nil, so typing Enter in `nc` does nothing instead of producing an error.
    ///
    /// Control characters other than tab are refused rather than passed on: no path
    /// holds one, and in a value a NUL would be cut short on its way into a command's
    /// environment, and a lone `\r` or an escape sequence would garble every status bar
    /// and log that shows it.
    public init?(line bytes: UnsafeBufferPointer<UInt8>) {
        // Checked and split in place, in the input buffer: a request line is read once
        // and never becomes a `String` as a whole.
        let read = Self.read(bytes)
        if case .words(let words) = read, words.isEmpty { return nil }
        self = read
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Request {
        var ascii = true
        var control: UInt8?
        for byte in bytes {
            if byte >= 0x80 {
                ascii = false
            } else if control == nil, Self.isForbiddenControl(byte) {
                control = byte
            }
        }
        if !ascii && String(validating: bytes, as: UTF8.self) == nil {
            return Request.invalid(ProtocolError(.badRequest, "request is not valid UTF-8"))
        }
        if let control { return Request.invalid(Self.controlCharacter(control)) }
        do {
            return Request.words(try ProtocolWords.split(bytes: bytes))
        } catch {
            return Request.invalid(ProtocolError(.badRequest, "\(error)"))
        }
    }

    private static func controlCharacter(_ control: UInt8) -> ProtocolError {
        let name = "U+" + String(control, radix: 16, uppercase: true).leftPadded(to: 4)
        return ProtocolError(.badRequest, "request contains the control character \(name)")
    }

    /// C0 controls and DEL, except tab, which separates words.
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
