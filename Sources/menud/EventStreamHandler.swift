import NIOCore

/// Writes event groups to a subscribed connection and keeps its queue bounded. It
/// sits next to the socket, below ``ReplyFlushHandler``, so an event group goes out
/// as it is rather than waiting among gathered replies. A subscriber that stops
/// reading is disconnected once what the connection holds unsent (replies too)
/// passes ``limit``, rather than making the daemon hold an ever-growing queue for
/// it: it never slows the daemon or the other clients.
final class EventStreamHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Default bound on a connection's unsent bytes, beyond what the kernel buffers.
    static let defaultLimit = 1 << 20

    private let limit: Int
    private var context: ChannelHandlerContext?
    private let hub: EventHub

    init(hub: EventHub, limit: Int = EventStreamHandler.defaultLimit) {
        self.hub = hub
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        hub.unsubscribe(self)
        self.context = nil
    }

    /// Bytes handed to the channel and not yet written to the socket, replies
    /// included. NIO keeps the count (`bufferedWritableBytes`), so no write needs a
    /// promise of its own to track it.
    var pendingBytes: Int {
        guard let options = context?.channel.syncOptions else { return 0 }
        return (try? options.getOption(.bufferedWritableBytes)) ?? 0
    }

    /// Queues one event group's lines and flushes them. Returns false, having closed
    /// the connection, when the group would take the queue past the bound.
    func send(_ lines: [UInt8]) -> Bool {
        guard let context else { return false }
        let buffer = context.channel.allocator.buffer(bytes: lines)
        guard pendingBytes + buffer.readableBytes <= limit else {
            context.close(promise: nil)
            return false
        }
        context.writeAndFlush(Self.wrapOutboundOut(buffer), promise: nil)
        return true
    }
}
