import Logging
import MenuProtocol
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Lets only processes of the daemon's own user talk to it. The socket's 0600 mode and
/// the 0700 directory already keep others out; this checks the kernel's word for who
/// connected (`SO_PEERCRED`), so a too-open socket path or a directory with the wrong
/// mode still cannot hand the menu, and with it `activate`, to another user.
///
/// It sits first among the inbound handlers: on refusal it answers `ERR permission`,
/// closes, and never lets the greeting or any request through.
final class PeerCredentialHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = Replies

    private let allowedUID: uid_t
    private let logger: Logger

    init(allowedUID: uid_t, logger: Logger) {
        self.allowedUID = allowedUID
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let provider = context.channel as? SocketOptionProvider else {
            refuse(context: context, reason: "cannot read peer credentials")
            return
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        credentials.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let peer) where peer.uid == self.allowedUID:
                context.fireChannelActive()
                context.pipeline.syncOperations.removeHandler(self, promise: nil)
            case .success(let peer):
                self.logger.warning("refused connection from uid \(peer.uid) pid \(peer.pid)")
                self.refuse(context: context, reason: "uid \(peer.uid) may not use this daemon")
            case .failure(let error):
                self.refuse(context: context, reason: "cannot read peer credentials: \(error)")
            }
        }
    }

    /// Requests that arrive before the check has finished are dropped: nothing reaches
    /// the dispatcher from a peer that is not yet known to be allowed.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(context: ChannelHandlerContext, reason: String) {
        let refusal = Replies.error(ProtocolError(.permission, reason))
        context.writeAndFlush(Self.wrapOutboundOut(refusal)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// Linux's `struct ucred`, which Swift's Glibc does not show without `_GNU_SOURCE`.
/// Three 32-bit fields have the same layout in Swift as in C.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
