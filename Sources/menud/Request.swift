import MenuCore
import NIOCore

/// A request as the dispatcher sees it: its words, or why it has none.
enum Request: Sendable {
    case words([ProtocolWord])
    /// The line could not be read as words; the dispatcher answers (or fails the
    /// current batch) with this error, so batches see framing errors in order too.
    case invalid(ProtocolError)

    /// The error for a line over ``LineFramingDecoder/maximumLineLength``.
    static let tooLong = Request.invalid(
        ProtocolError(
            .lineTooLong, "a request line may hold at most \(LineFramingDecoder.maximumLineLength) bytes"))

    /// Reads one framed line: checks that it is UTF-8 without control characters and
    /// splits it into words with the shared ``ProtocolWords`` rule. A blank line is
    /// nil, so typing Enter in `nc` does nothing instead of producing an error.
    ///
    /// Control characters other than tab are refused rather than passed on: no path
    /// holds one, and in a value a NUL would be cut short on its way into a command's
    /// environment, and a lone `\r` or an escape sequence would garble every status bar
    /// and log that shows it.
    init?(line buffer: ByteBuffer) {
        guard let line = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            self = .invalid(ProtocolError(.badRequest, "request is not valid UTF-8"))
            return
        }
        if let control = buffer.readableBytesView.first(where: Self.isForbiddenControl) {
            let name = "U+" + String(control, radix: 16, uppercase: true).leftPadded(to: 4)
            self = .invalid(ProtocolError(.badRequest, "request contains the control character \(name)"))
            return
        }
        do {
            let words = try ProtocolWords.split(line)
            if words.isEmpty { return nil }
            self = .words(words)
        } catch {
            self = .invalid(ProtocolError(.badRequest, "\(error)"))
        }
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
