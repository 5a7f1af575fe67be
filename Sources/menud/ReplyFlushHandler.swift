import MenuProtocol
import NIOCore

/// Puts the ``Replies`` of every handler into the connection's output buffer. The
/// replies are framed already (``Replies`` writes every terminator); this handler
/// decides when their bytes go down to the socket.
///
/// Replies are gathered into one buffer until the next flush, which the dispatcher
/// issues once per read: a client that pipelines many requests gets all their replies
/// in one socket write, with one downstream write per flush instead of per reply.
///
/// Past ``chunkSize`` the gathered replies are handed down without waiting for the
/// flush, so that the channel's writability (which the dispatcher checks before each
/// request) still counts them and a client that does not read stays bounded.
///
/// A close from above waits until every reply accepted before it is written, so a
/// handler can close right after its last reply (`close`, end of input) without
/// tracking a promise per reply.
final class ReplyFlushHandler: ChannelOutboundHandler {
    /// The replies of one request or of many, in order.
    typealias OutboundIn = Replies
    typealias OutboundOut = ByteBuffer

    static let chunkSize = 16 * 1024

    /// Replies gathered since the last flush.
    private var pending: ByteBuffer?
    /// The promises of the replies in `pending`, completed with its write.
    private var pendingPromise: EventLoopPromise<Void>?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let replies = Self.unwrapOutboundIn(data)
        if pending == nil { pending = context.channel.allocator.buffer(capacity: replies.lines.count) }
        pending!.writeBytes(replies.lines.bytes)
        if let promise {
            if let pendingPromise {
                pendingPromise.futureResult.cascade(to: promise)
            } else {
                pendingPromise = promise
            }
        }
        if pending!.readableBytes >= Self.chunkSize { writePending(context: context) }
    }

    func flush(context: ChannelHandlerContext) {
        writePending(context: context)
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        writePending(context: context)
        // NIO completes writes in order, so an empty one after the replies completes
        // once they are all written (or have failed): no write before it needs a
        // promise just in case a close comes.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer()), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: mode, promise: promise)
        }
    }

    private func writePending(context: ChannelHandlerContext) {
        guard let buffer = pending else { return }
        pending = nil
        let promise = pendingPromise
        pendingPromise = nil
        context.write(Self.wrapOutboundOut(buffer), promise: promise)
    }
}
