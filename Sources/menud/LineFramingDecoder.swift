import NIOCore

/// Splits the byte stream at `\n` (dropping a `\r` before it), enforces the line
/// limit, and reads each line as a ``Request``.
///
/// Every request line of one read goes up as ONE message, an array in arrival order:
/// a client that pipelines sixteen requests costs one trip through the pipeline, not
/// sixteen, and each trip (wrapping, unwrapping and casting an `NIOAny`) costs more
/// than reading a short request.
///
/// A client that never sends a newline must not make the daemon buffer without
/// bound, so a line over the limit is reported once and then discarded up to its end,
/// which keeps the connection in step for the next request.
struct LineFramingDecoder: ByteToMessageDecoder {
    typealias InboundOut = [Request]

    /// The longest line the daemon keeps, not counting its terminator.
    static let maximumLineLength = 64 * 1024

    private var discarding = false

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        var requests: [Request] = []
        while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if discarding {
                discarding = false
                continue
            }
            Self.read(line, into: &requests)
        }
        // `+ 1` leaves room for a `\r` that may precede the newline still to come.
        if buffer.readableBytes > Self.maximumLineLength + 1 {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            if !discarding {
                discarding = true
                requests.append(.tooLong)
            }
        }
        if !requests.isEmpty { context.fireChannelRead(Self.wrapInboundOut(requests)) }
        return .needMoreData
    }

    /// A last line without a newline (`printf ping | nc -U`) is still a request.
    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        if buffer.readableBytes > 0, !discarding {
            var requests: [Request] = []
            Self.read(buffer.readSlice(length: buffer.readableBytes)!, into: &requests)
            if !requests.isEmpty { context.fireChannelRead(Self.wrapInboundOut(requests)) }
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }

    private static func read(_ line: ByteBuffer, into requests: inout [Request]) {
        var line = line
        if line.readableBytesView.last == UInt8(ascii: "\r") {
            line.moveWriterIndex(to: line.writerIndex - 1)
        }
        // A line of exactly the limit plus its `\r` is still within the limit.
        if line.readableBytes > maximumLineLength {
            requests.append(.tooLong)
        } else if let request = Request(line: line) {
            requests.append(request)
        }
    }
}
