import Logging
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The running daemon: its loop and what it serves on it (the socket, the state,
/// the config watch, the signals). SIGINT and SIGTERM stop it gracefully: the socket
/// file is removed, the clients closed, the state written, and the loop then ends
/// when its last handle has closed. SIGHUP reloads the config, the way daemons
/// traditionally re-read theirs.
final class Daemon {
    let loop: EventLoop
    let state: DaemonState
    private let server: MenuServer
    private let logger: Logger
    private var configWatch: ConfigWatch?
    private var tray: Tray?
    private var signals: [SignalWatch] = []
    private var stopping = false

    init(loop: EventLoop, state: DaemonState, server: MenuServer, watching path: String?, logger: Logger)
        throws(UVError)
    {
        self.loop = loop
        self.state = state
        self.server = server
        self.logger = logger
        if let path { configWatch = ConfigWatch(path: path, state: state, logger: logger) }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let watch = try SignalWatch(loop: loop, signal: number)
            watch.onSignal = { [unowned self] number in
                if number == SIGHUP {
                    _ = self.state.reload(because: "SIGHUP")
                } else {
                    self.stop()
                }
            }
            signals.append(watch)
        }
    }

    /// Shows the menus in the system tray while `--tray` is given (`always`) or the
    /// config's `settings: tray` is on, as it is after each reload. Without a session
    /// bus the tray logs why and the daemon goes on without.
    func followTraySetting(always: Bool) {
        state.onReload = { [unowned self] in self.updateTray(always: always) }
        updateTray(always: always)
    }

    private func updateTray(always: Bool) {
        let wanted = always || state.config.tray
        if wanted, tray == nil {
            let tray = Tray(state: state, loop: loop, logger: logger)
            if tray.start() { self.tray = tray }
        } else if !wanted, let tray {
            tray.stop()
            self.tray = nil
            logger.info("tray: off, as the config says")
        }
    }

    /// Serves until stopped.
    func run() {
        loop.run()
    }

    func stop() {
        guard !stopping else { return }
        stopping = true
        logger.info("shutting down")
        for watch in signals { watch.close() }
        signals = []
        configWatch?.close()
        configWatch = nil
        state.onReload = nil
        tray?.stop()
        tray = nil
        server.stop()
        guard state.store != nil else { return state.close() }
        // The last changes may still be waiting for their write.
        state.saveNow().whenComplete { [state] _ in state.close() }
    }
}
