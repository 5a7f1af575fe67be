import Logging
import NIOCore

/// Drops a client that leaves its replies unread. NIO's `BackPressureHandler`, in
/// front of it, already stops reading a connection's requests while its output is
/// over the high-water mark, so such a client cannot make the daemon hold more than a
/// bounded amount for it; but it would still hold a file descriptor and that buffer
/// forever. Once the connection has stayed unwritable for ``timeout``, it is closed
/// and logged with what it left unread.
final class StalledReaderHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    typealias InboundOut = NIOAny

    private let timeout: TimeAmount
    /// Knows how many bytes the connection has not taken, for the log line.
    private let stream: EventStreamHandler
    private let logger: Logger
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount, stream: EventStreamHandler, logger: Logger) {
        self.timeout = timeout
        self.stream = stream
        self.logger = logger
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deadline?.cancel()
            deadline = nil
        } else if deadline == nil {
            let timeout = self.timeout
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                self.logger.warning(
                    "dropped a client that left \(self.stream.pendingBytes) bytes of replies unread for \(timeout.nanoseconds / 1_000_000) ms"
                )
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
