import MenuCore
import NIOCore

/// A request as the dispatcher sees it: its words, or why it has none.
enum Request: Sendable {
    case words([ProtocolWord])
    /// The line could not be read as words; the dispatcher answers (or fails the
    /// current batch) with this error, so batches see framing errors in order too.
    case invalid(ProtocolError)
}

/// Checks that a line is UTF-8 without control characters and splits it into words
/// with the shared ``ProtocolWords`` rule. Blank lines are dropped here, so typing
/// Enter in `nc` does nothing instead of producing an error.
///
/// Control characters other than tab are refused rather than passed on: no path
/// holds one, and in a value a NUL would be cut short on its way into a command's
/// environment, and a lone `\r` or an escape sequence would garble every status bar
/// and log that shows it.
final class RequestDecodingHandler: ChannelInboundHandler {
    typealias InboundIn = FramedLine
    typealias InboundOut = Request

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .tooLong:
            let error = ProtocolError(
                .lineTooLong, "a request line may hold at most \(LineFramingDecoder.maximumLineLength) bytes")
            context.fireChannelRead(Self.wrapInboundOut(.invalid(error)))
        case .line(let buffer):
            guard let line = String(validating: buffer.readableBytesView, as: UTF8.self) else {
                let error = ProtocolError(.badRequest, "request is not valid UTF-8")
                context.fireChannelRead(Self.wrapInboundOut(.invalid(error)))
                return
            }
            if let control = buffer.readableBytesView.first(where: Self.isForbiddenControl) {
                let name = "U+" + String(control, radix: 16, uppercase: true).leftPadded(to: 4)
                let error = ProtocolError(.badRequest, "request contains the control character \(name)")
                context.fireChannelRead(Self.wrapInboundOut(.invalid(error)))
                return
            }
            do {
                let words = try ProtocolWords.split(line)
                if words.isEmpty { return }
                context.fireChannelRead(Self.wrapInboundOut(.words(words)))
            } catch {
                context.fireChannelRead(Self.wrapInboundOut(.invalid(ProtocolError(.badRequest, "\(error)"))))
            }
        }
    }
}

extension RequestDecodingHandler {
    /// C0 controls and DEL, except tab, which separates words.
    fileprivate static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
