import ArgumentParser
import NIOCore
import NIOPosix

/// The least a SwiftNIO server can do per request: one handler that answers `OK` to
/// every line, with none of menud's framing limits, decoding, dispatch or model.
/// The socket section drives it with the same load as menud and redis, so the table
/// shows how much of the gap to redis is menud's own work and how much is the cost
/// of NIO's channel machinery (reads, pipeline events, writes) on this machine.
struct NIOFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nio-floor", abstract: "Serve `OK` to every line on a Unix socket, as a baseline.")

    @Option(help: "The socket to listen on.")
    var socket: String

    @Option(help: "Event loop threads (menud has one).")
    var threads = 1

    @Option(help: "Pass-through handlers in front of the answering one, to price a pipeline hop.")
    var passThrough = 0

    func run() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .childChannelInitializer { [passThrough] channel in
                channel.eventLoop.makeCompletedFuture {
                    for _ in 0..<passThrough {
                        try channel.pipeline.syncOperations.addHandler(PassThroughHandler())
                    }
                    try channel.pipeline.syncOperations.addHandler(OKPerLineHandler())
                }
            }
            .bind(unixDomainSocketPath: socket, cleanupExistingSocketFile: true)
            .wait()
        try channel.closeFuture.wait()
    }
}

/// Counts the newlines in each read and writes that many `OK` lines in one buffer,
/// flushed once per read, as menud's encoder does.
final class OKPerLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var reply: ByteBuffer?

    func channelActive(context: ChannelHandlerContext) {
        // menud greets; so does the floor, so the same client counts replies alike.
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer(string: "OK MENUD 1\n")), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        var lines = 0
        for byte in buffer.readableBytesView where byte == UInt8(ascii: "\n") { lines += 1 }
        guard lines > 0 else { return }
        if reply == nil { reply = context.channel.allocator.buffer(capacity: 3 * lines) }
        for _ in 0..<lines { reply!.writeStaticString("OK\n") }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let reply {
            self.reply = nil
            context.writeAndFlush(Self.wrapOutboundOut(reply), promise: nil)
        }
    }
}

/// Forwards every event untouched: what a handler costs before it does anything.
final class PassThroughHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
}
