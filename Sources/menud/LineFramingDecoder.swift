import NIOCore

/// One framed request line, or the news that a line was too long to keep.
enum FramedLine: Sendable {
    case line(ByteBuffer)
    case tooLong
}

/// Splits the byte stream at `\n` (dropping a `\r` before it) and enforces the line
/// limit. A client that never sends a newline must not make the daemon buffer without
/// bound, so a line over the limit is reported once and then discarded up to its end,
/// which keeps the connection in step for the next request.
struct LineFramingDecoder: ByteToMessageDecoder {
    typealias InboundOut = FramedLine

    /// The longest line the daemon keeps, not counting its terminator.
    static let maximumLineLength = 64 * 1024

    private var discarding = false

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if discarding {
                discarding = false
                return .continue
            }
            if line.readableBytesView.last == UInt8(ascii: "\r") {
                line.moveWriterIndex(to: line.writerIndex - 1)
            }
            // A line of exactly the limit plus its `\r` is still within the limit.
            if line.readableBytes > Self.maximumLineLength {
                context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            } else {
                context.fireChannelRead(Self.wrapInboundOut(.line(line)))
            }
            return .continue
        }
        // `+ 1` leaves room for a `\r` that may precede the newline still to come.
        if buffer.readableBytes > Self.maximumLineLength + 1 {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            if !discarding {
                discarding = true
                context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            }
        }
        return .needMoreData
    }

    /// A last line without a newline (`printf ping | nc -U`) is still a request.
    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, !discarding {
            var line = buffer.readSlice(length: buffer.readableBytes)!
            if line.readableBytesView.last == UInt8(ascii: "\r") {
                line.moveWriterIndex(to: line.writerIndex - 1)
            }
            context.fireChannelRead(Self.wrapInboundOut(.line(line)))
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
