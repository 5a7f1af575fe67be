import Logging
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
final class ConnectionLimitHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = [Response]

    private let count: ConnectionCount
    private let logger: Logger
    private var counted = false

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
            context.writeAndFlush(Self.wrapOutboundOut([.error(error)])).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        count.open += 1
        counted = true
        context.fireChannelActive()
    }

    /// A refused connection's requests go nowhere.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if counted { context.fireChannelRead(data) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            count.open -= 1
            counted = false
        }
        context.fireChannelInactive()
    }
}
