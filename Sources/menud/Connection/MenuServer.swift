import Logging
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket and its clients. Everything runs on the daemon's one loop:
/// the model is not thread-safe and every command is a few microseconds of in-memory
/// work, so a single loop confines the model without locks or hops and keeps replies
/// in order for free (as redis does).
///
/// At accept, before the greeting, a client is refused with an `ERR` when the
/// connection limit is reached (`too-many-connections`) or when it is another user's
/// (`permission`, by the kernel's `SO_PEERCRED`: the socket's 0600 mode and the 0700
/// directory already keep others out, and this holds even if they are too open).
final class MenuServer {
    private let loop: EventLoop
    private let socket: SocketFile
    private let dispatcher: Dispatcher
    private let stallTimeout: Duration
    private let logger: Logger
    private let count: ConnectionCount
    private let listener: UnixListener
    private var clients: [ObjectIdentifier: ServedClient] = [:]
    private var acceptErrors = LogThrottle(interval: .seconds(10))
    /// The clients whose reads this turn left replies to write, and what writes
    /// them once the turn's events are handled.
    private let repliesWaiting = WaitingReplies()
    private let afterEvents: AfterEvents

    /// Binds the socket; nothing is accepted before ``start()``.
    init(
        loop: EventLoop, socket: SocketFile, dispatcher: Dispatcher, stallTimeout: Duration,
        connectionLimit: Int,
        logger: Logger
    ) throws(SocketFile.Problem) {
        self.loop = loop
        self.socket = socket
        self.dispatcher = dispatcher
        self.stallTimeout = stallTimeout
        self.logger = logger
        count = ConnectionCount(limit: connectionLimit)
        do {
            listener = try UnixListener(loop: loop, path: socket.path, backlog: 256)
        } catch {
            throw socket.listenProblem(error)
        }
        afterEvents = AfterEvents(loop: loop)
    }

    /// The socket's path, as clients are to connect to it.
    var socketPath: String { socket.path }

    func start() throws(SocketFile.Problem) {
        try socket.restrictMode()
        listener.onConnection = { [unowned self] stream in self.admit(stream) }
        // Descriptors can run out in spite of the connection limit (children commands,
        // or the whole system's table); the listener pauses, and the log says so, at
        // most once per interval.
        listener.onAcceptError = { [unowned self] error in
            let (log, suppressed) = self.acceptErrors.admit()
            if log {
                let more = LogThrottle.heldBack(suppressed)
                self.logger.warning("cannot accept a connection: \(error)\(more)")
            }
        }
        afterEvents.onRun = { [repliesWaiting] in repliesWaiting.writeAll() }
        afterEvents.start()
        listener.startAccepting()
        logger.info("listening on \(socket.path), at most \(count.limit) clients")
    }

    /// Stops accepting, removes the socket file and closes every client.
    func stop() {
        listener.close()
        // The replies of this turn are written before the turn ends, which it will not
        // reach with its after-events closed: the waiting list and each connection's
        // closure hold each other, and would outlive the daemon.
        repliesWaiting.writeAll()
        afterEvents.close()
        socket.remove()
        for client in clients.values { client.connection.close() }
    }

    private func admit(_ stream: SocketConnection) {
        guard !count.isFull else {
            let (log, suppressed) = count.refusals.admit()
            if log {
                let more = LogThrottle.heldBack(suppressed)
                logger.warning("refused a connection: \(count.open) clients are connected, the limit\(more)")
            }
            return refuse(
                stream,
                ProtocolError(
                    .tooManyConnections, "\(count.limit) clients are connected already; try again later"))
        }
        do throws(UVError) {
            let peer = try stream.peerCredentials()
            guard peer.uid == getuid() else {
                logger.warning("refused connection from uid \(peer.uid) pid \(peer.pid)")
                return refuse(stream, ProtocolError(.permission, "uid \(peer.uid) may not use this daemon"))
            }
        } catch {
            return refuse(stream, ProtocolError(.permission, "cannot read peer credentials: \(error)"))
        }

        count.open += 1
        let connection = ClientConnection(transport: stream, dispatcher: dispatcher)
        let client = ServedClient(connection: connection)
        let key = ObjectIdentifier(connection)
        clients[key] = client
        stream.onRead = { bytes in connection.received(bytes) }
        connection.onRepliesWaiting = { [repliesWaiting] in repliesWaiting.add($0) }
        stream.onEndOfInput = { connection.inputDidEnd() }
        stream.onDrain = { connection.drained() }
        stream.onClose = { [unowned self] in
            connection.closed()
            client.stallTimer?.close()
            self.clients[key] = nil
            self.count.open -= 1
        }
        connection.onWritabilityChanged = { [unowned self] writable in
            self.watchForStall(client, writable: writable)
        }
        connection.start()
    }

    /// Answers with `error` instead of the greeting, and closes once it is sent.
    private func refuse(_ stream: SocketConnection, _ error: ProtocolError) {
        Replies.error(error).lines.bytes.withUnsafeBytes { stream.write($0) }
        stream.shutdown()
    }

    /// Drops a client that leaves its replies unread. Back-pressure already stops
    /// reading its requests, so what the daemon holds for it is bounded; but it would
    /// still hold a descriptor and that buffer forever. Once it has stayed unwritable
    /// for the stall timeout, it is closed and logged with what it left unread.
    private func watchForStall(_ client: ServedClient, writable: Bool) {
        guard !writable else {
            client.stallTimer?.stop()
            return
        }
        let timer = client.stallTimer ?? LoopTimer(loop: loop)
        if client.stallTimer == nil {
            client.stallTimer = timer
            let timeout = stallTimeout
            let logger = self.logger
            timer.onFire = { [unowned client] in
                let milliseconds = Int(timeout.seconds * 1000)
                logger.warning(
                    "dropped a client that left \(client.connection.unsentBytes) bytes of replies unread for \(milliseconds) ms"
                )
                client.connection.close()
            }
        }
        timer.start(after: stallTimeout)
    }
}

/// A served client and its stalled-reader timer, made when first needed.
private final class ServedClient {
    let connection: ClientConnection
    var stallTimer: LoopTimer?

    init(connection: ClientConnection) { self.connection = connection }
}
