import MenuProtocol
import NIOCore

/// Sends `OK MENUD <version>` when a connection becomes active, so a client knows it
/// reached menud (and which protocol) before sending anything. It removes itself
/// afterwards: it has nothing more to do on this connection.
final class GreetingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = Replies

    static let protocolVersion = "1"
    static let text = "MENUD \(protocolVersion)"

    func channelActive(context: ChannelHandlerContext) {
        var greeting = Replies()
        greeting.greeting(Self.text)
        context.writeAndFlush(Self.wrapOutboundOut(greeting), promise: nil)
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
