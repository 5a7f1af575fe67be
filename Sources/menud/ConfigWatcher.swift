import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads when the config file changes on disk. It watches the file's directory
/// rather than the file: editors that save by writing a new file and renaming it over
/// the old one (vim, most IDEs) replace the inode a file watch would follow. Events
/// are filtered by name, and only finished writes and renames into place count, so
/// a half-written file is never loaded.
final class ConfigWatcher: Service {
    private let path: String
    private let state: NIOLoopBound<DaemonState>
    private let logger: Logger

    init(path: String, state: NIOLoopBound<DaemonState>, logger: Logger) {
        self.path = path
        self.state = state
        self.logger = logger
    }

    func run() async throws {
        let directory = Directory.parent(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            logger.warning(
                "cannot watch \(path) for changes: inotify_init1: \(String(cString: strerror(errno)))")
            return try await idle()
        }
        // Removals and mode changes count too: the file may be gone or unreadable, and
        // then the menu in memory is kept and the user told.
        let events = IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB
        guard inotify_add_watch(fd, directory, UInt32(events)) >= 0 else {
            logger.warning("cannot watch \(directory) for changes: \(String(cString: strerror(errno)))")
            close(fd)
            return try await idle()
        }
        let state = self.state
        let path = self.path
        let logger = self.logger
        let channel = try await NIOPipeBootstrap(group: state.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        InotifyHandler(name: name) {
                            if access(path, F_OK) == 0 {
                                _ = state.value.reload(because: "config file changed")
                            } else {
                                logger.warning(
                                    "\(path) was removed; keeping the current menu until it is back")
                            }
                        })
                }
            }
            .takingOwnershipOfDescriptor(input: fd)
            .get()
        logger.info("watching \(directory) for changes to \(name)")
        try? await gracefulShutdown()
        try? await channel.close()
    }

    /// Without a watch the daemon still serves; a service that returned would stop it.
    private func idle() async throws {
        try? await gracefulShutdown()
    }
}

/// Reads `inotify_event` records and calls `changed` once a burst of events for
/// `name` has settled: an editor's save is several events, and one reload is enough.
final class InotifyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// How long a burst of events may take.
    static let settle = TimeAmount.milliseconds(50)

    private let name: String
    private let changed: () -> Void
    private var pending: Scheduled<Void>?

    init(name: String, changed: @escaping () -> Void) {
        self.name = name
        self.changed = changed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = Self.unwrapInboundIn(data)
        var matched = false
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
        while buffer.readInteger(endianness: .host, as: Int32.self) != nil,
            buffer.readInteger(endianness: .host, as: UInt32.self) != nil,
            buffer.readInteger(endianness: .host, as: UInt32.self) != nil,
            let length = buffer.readInteger(endianness: .host, as: UInt32.self),
            let bytes = buffer.readBytes(length: Int(length))
        {
            let eventName = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            if eventName == name { matched = true }
        }
        guard matched else { return }
        pending?.cancel()
        pending = context.eventLoop.assumeIsolated().scheduleTask(in: Self.settle) {
            self.pending = nil
            self.changed()
        }
    }
}
