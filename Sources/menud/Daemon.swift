import Logging
import MenuBus
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
    let service: MenuService
    private let server: MenuServer
    /// The programs the parts and the popup started and not yet ended.
    private let processes: ProcessTable
    /// The tray's way into the dispatcher.
    private let caller: CommandCaller
    private let logger: Logger
    private var configWatch: ConfigWatch?
    private var tray: Tray?
    /// What the tray's middle click starts; the daemon's, so that its log throttle
    /// outlives a tray turned off and on.
    private let popup: PopupLauncher
    /// Why the tray could not start, as logged: a reload that finds no bus again
    /// says nothing more until the reason changes or the tray is turned off.
    private var trayFailure: String?
    private var signals: [SignalWatch] = []
    private var stopping = false
    /// Whether the write at shutdown failed: the daemon then exits non-zero.
    private(set) var finalSaveFailed = false

    /// With `watch`, the config file is watched: the one served, or while the built-in
    /// menu is served, the default path a config is expected at.
    init(
        loop: EventLoop, dispatcher: Dispatcher, processes: ProcessTable, server: MenuServer, watch: Bool,
        logger: Logger
    ) throws(UVError) {
        self.loop = loop
        self.processes = processes
        self.service = dispatcher.service
        self.caller = CommandCaller(dispatcher: dispatcher)
        self.server = server
        self.logger = logger
        popup = PopupLauncher(socketPath: server.socketPath, processes: processes, logger: logger)
        if watch {
            watchConfig()
            service.menu.onLocationChange = { [unowned self] in self.watchConfig() }
        }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let watch = try SignalWatch(loop: loop, signal: number)
            watch.onSignal = { [unowned self] number in
                if number == SIGHUP {
                    self.service.reloadUnanswered(because: "SIGHUP")
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
        service.menu.onReload = { [unowned self] in self.updateTray(always: always) }
        updateTray(always: always)
    }

    private func updateTray(always: Bool) {
        let wanted = always || service.menu.config.tray
        if wanted, tray == nil {
            let tray = Tray(
                menu: service.menu, events: service.events, caller: caller, popup: popup, loop: loop,
                logger: logger)
            do throws(BusError) {
                try tray.start()
                self.tray = tray
                trayFailure = nil
            } catch {
                let failure = "tray: no session bus (\(error)); serving without the tray"
                if failure != trayFailure { logger.warning("\(failure)") }
                trayFailure = failure
            }
        } else if !wanted {
            trayFailure = nil
            guard let tray else { return }
            tray.stop()
            self.tray = nil
            logger.info("tray: off, as the config says")
        }
    }

    /// Puts the config watch on the file the state's location says, unless it is there.
    private func watchConfig() {
        let target: String?
        switch service.menu.location {
        case .file(let path): target = path
        case .builtin: target = service.menu.location.awaited
        }
        guard !stopping, configWatch?.path != target else { return }
        configWatch?.close()
        configWatch = nil
        guard let target, let watch = ConfigWatch(path: target, loop: loop, logger: logger) else { return }
        watch.onSettled = { [unowned self] exists in self.configChanged(exists: exists) }
        configWatch = watch
    }

    /// A settled change on the watched path: the served file changed or went, or the
    /// awaited one appeared.
    private func configChanged(exists: Bool) {
        switch service.menu.location {
        case .file(let path):
            if exists {
                service.configFileChanged(because: "config file changed")
            } else {
                logger.warning("\(path) was removed; keeping the current menu until it is back")
            }
        case .builtin:
            if exists { service.configFileChanged(because: "config file appeared") }
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
        service.menu.onLocationChange = nil
        configWatch?.close()
        configWatch = nil
        service.menu.onReload = nil
        tray?.stop()
        tray = nil
        server.stop()
        guard service.persistence.store != nil else { return close() }
        // The last changes may still be waiting for their write. When it fails they
        // are lost: said at error level whatever was logged before, and in the exit
        // status, for systemd to show.
        service.persistence.saveNow().whenComplete { [logger] result in
            if case .failure(let error) = result {
                logger.error("the last save failed, and the changes since the save before are lost: \(error)")
                self.finalSaveFailed = true
            }
            self.close()
        }
    }

    /// The parts, then the watches of the processes still running
    /// (``ProcessTable/close()``), which the parts started theirs in.
    private func close() {
        service.close()
        processes.close()
    }
}
