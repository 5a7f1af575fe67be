import Logging
import MenuProtocol
import NIOCore

/// How many client connections are open, and how many may be. Shared by every
/// connection's ``ConnectionLimitHandler``; all of them run on the daemon's one
/// event loop, so it needs no lock.
final class ConnectionCount {
    let limit: Int
    var open = 0
    var refusals = LogThrottle(interval: .seconds(10))

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps a reserve of file descriptors below the process limit for what the
    /// daemon itself must open (state writes, config reloads, children commands), so
    /// that a flood of clients is refused with a reply instead of starving those.
    static func limit(forOpenFileLimit files: Int) -> Int {
        max(1, files - 64)
    }
}

/// Refuses a connection beyond ``ConnectionCount/limit`` with
/// `ERR too-many-connections` before the greeting, and logs it (throttled). It comes
/// first among the inbound handlers so that a refused connection costs nothing more.
///
/// An admitted connection is counted until its channel closes, and the handler then
/// leaves the pipeline: every handler a request passes costs a hop per event (read,
/// read-complete, write, flush), and this one has nothing more to decide.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = Replies

    private let count: ConnectionCount
    private let logger: Logger

    init(count: ConnectionCount, logger: Logger) {
        self.count = count
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        guard count.open < count.limit else {
            let (log, suppressed) = count.refusals.admit()
            if log {
                let more = suppressed > 0 ? " (and \(suppressed) more since the last report)" : ""
                logger.warning("refused a connection: \(count.open) clients are connected, the limit\(more)")
            }
            let error = ProtocolError(
                .tooManyConnections, "\(count.limit) clients are connected already; try again later")
            context.writeAndFlush(Self.wrapOutboundOut(.error(error))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        count.open += 1
        context.channel.closeFuture.assumeIsolated().whenComplete { [count] _ in count.open -= 1 }
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    /// A refused connection's requests go nowhere.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
