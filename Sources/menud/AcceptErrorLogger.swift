import Logging
import NIOCore

/// Logs the listening socket's accept errors. The connection limit keeps the daemon
/// below its file limit, but descriptors can still run out (children commands, or
/// the whole system's table), and then `accept` fails with EMFILE or ENFILE. NIO's
/// `AcceptBackoffHandler`, in front of this one, pauses accepting for a moment so the
/// loop does not spin; this handler makes the refusals visible, at most once per
/// interval, instead of silent.
final class AcceptErrorLogger: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let logger: Logger
    private var throttle = LogThrottle(interval: .seconds(10))

    init(logger: Logger) {
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        let (log, suppressed) = throttle.admit()
        if log {
            let more = suppressed > 0 ? " (and \(suppressed) more since the last report)" : ""
            logger.warning("cannot accept a connection: \(error)\(more)")
        }
    }
}
