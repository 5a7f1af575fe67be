import MenuProtocol
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
    static let maximumLineLength = Request.maximumLineLength

    private var discarding = false

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        var requests: [Request] = []
        // Room for a pipelining client's usual burst, instead of growing by doubling.
        requests.reserveCapacity(16)
        // Every complete line is read in place, in one pass over the readable bytes,
        // without a `ByteBuffer` slice per line.
        let consumed = buffer.withUnsafeReadableBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                if discarding {
                    discarding = false
                    continue
                }
                Self.read(UnsafeBufferPointer(rebasing: bytes[start..<newline]), into: &requests)
            }
            return start
        }
        buffer.moveReaderIndex(forwardBy: consumed)
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
            buffer.withUnsafeReadableBytes { raw in
                Self.read(raw.assumingMemoryBound(to: UInt8.self), into: &requests)
            }
            if !requests.isEmpty { context.fireChannelRead(Self.wrapInboundOut(requests)) }
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
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
