import Logging
import MenuCore
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The listening socket and its connection pipeline, run as a ServiceLifecycle
/// service so that SIGINT and SIGTERM become a graceful shutdown that removes the
/// socket file.
///
/// Everything runs on ONE event loop: the model is not thread-safe and every command
/// is a few microseconds of in-memory work, so a single loop confines the model
/// without locks or hops and keeps replies in order for free (as redis does).
final class MenuServer: Service {
    private let socket: SocketFile
    private let group: MultiThreadedEventLoopGroup
    private let state: NIOLoopBound<DaemonState>
    private let logger: Logger
    private let stallTimeout: TimeAmount
    private let connectionLimit: Int

    init(
        socket: SocketFile, group: MultiThreadedEventLoopGroup, state: NIOLoopBound<DaemonState>,
        stallTimeout: TimeAmount, connectionLimit: Int, logger: Logger
    ) {
        self.connectionLimit = connectionLimit
        self.socket = socket
        self.group = group
        self.state = state
        self.stallTimeout = stallTimeout
        self.logger = logger
    }

    /// Handlers in pipeline order. Inbound: back-pressure, the connection limit,
    /// credentials, greeting, framing (into requests), dispatch; every outbound ``Replies``
    /// goes through ``ReplyFlushHandler``.
    static func configure(
        _ channel: Channel, state: NIOLoopBound<DaemonState>, stallTimeout: TimeAmount,
        connections: ConnectionCount, logger: Logger
    ) throws {
        // Called on the state's loop (the group has one), where `value` may be read.
        let state = state.value
        let stream = EventStreamHandler(hub: state.events)
        try channel.pipeline.syncOperations.addHandlers([
            stream,
            BackPressureHandler(),
            StalledReaderHandler(timeout: stallTimeout, stream: stream, logger: logger),
            ReplyFlushHandler(),
            ConnectionLimitHandler(count: connections, logger: logger),
            PeerCredentialHandler(allowedUID: getuid(), logger: logger),
            GreetingHandler(),
            ByteToMessageHandler(LineFramingDecoder()),
            CommandDispatchHandler(state: state, stream: stream),
        ])
    }

    func run() async throws {
        let state = self.state
        let logger = self.logger
        let stallTimeout = self.stallTimeout
        // The group has one loop, so every connection's handlers run where this is bound.
        let loop = group.next()
        let limit = connectionLimit
        let connections = try await loop.submit {
            NIOLoopBound(ConnectionCount(limit: limit), eventLoop: loop)
        }.get()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        AcceptBackoffHandler(), AcceptErrorLogger(logger: logger),
                    ])
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configure(
                        channel, state: state, stallTimeout: stallTimeout, connections: connections.value,
                        logger: logger)
                }
            }
            .bind(unixDomainSocketPath: socket.path)
            .get()
        defer { socket.remove() }
        try socket.restrictMode()
        logger.info("listening on \(socket.path), at most \(connectionLimit) clients")

        try? await gracefulShutdown()
        logger.info("shutting down")
        try? await channel.close()
    }
}
