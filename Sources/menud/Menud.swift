import ArgumentParser
import Logging
import MenuConfigLoading
import MenuCore
import MenuLoop
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The menud command line: where the config and socket are, and `--check`.
@main
struct Menud: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menud",
        abstract: "Serve accordion menus over a line protocol on a Unix socket.",
        discussion: "The protocol is described in docs/protocol.md; menuctl is its client.",
        version: ServerCommands.daemonVersion)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The menu config.",
            discussion:
                "Default: $XDG_CONFIG_HOME/menud/menu.yaml, then ~/.config/menud/menu.yaml; without either, the built-in example menu, until a config is written there (it is loaded then).",
            valueName: "file"))
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The Unix socket to listen on.",
            discussion:
                "Default: $MENUD_SOCKET, else $XDG_RUNTIME_DIR/menud/socket, else /tmp/menud-$UID/socket.",
            valueName: "path"))
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where expansion and values are kept across runs.",
            discussion: "Default: $XDG_STATE_HOME/menud/state, then ~/.local/state/menud/state.",
            valueName: "file"))
    var state: String?

    @Flag(name: .long, help: "Do not read or write a state file.")
    var noState = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a group's children-cmd may run before it is killed and shows an error row.",
            valueName: "seconds"))
    var childrenTimeout: Double = 5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a client may leave its replies unread before it is disconnected.",
            valueName: "seconds"))
    var stallTimeout: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a value's on-change command may run before it is killed with its process group.",
            valueName: "seconds"))
    var onChangeTimeout: Double = 10

    @Flag(name: .long, help: "Do not reload when the config file changes (SIGHUP and 'reload' still do).")
    var noWatch = false

    @Flag(
        name: .long,
        help:
            "Show each top-level menu as a tray item (StatusNotifierItem) on the session bus, as 'settings: tray' does."
    )
    var tray = false

    @Flag(
        name: .long,
        help:
            "Check the config, print every error as FILE:LINE:COL: message (and every warning, as FILE:LINE:COL: warning: message), and exit."
    )
    var check = false

    func run() throws {
        SignalDisposition.prepare()
        let openFiles = OpenFileLimit.raise()
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "menud")

        let location = config.map(ConfigLocation.file) ?? ConfigLocation.resolve()
        let loaded = location.load()
        let menuConfig: MenuConfig
        switch loaded {
        case .failure(let errors):
            for error in errors.errors { Self.printError(error.description) }
            throw ExitCode.failure
        case .success(let c):
            menuConfig = c
        }
        if check {
            for warning in ConfigWarnings.of(menuConfig) { Self.printError(warning) }
            print("\(menuConfig.file): ok")
            // Freeing a big menu's tree one string at a time only to exit takes longer
            // than the kernel's dropping the whole address space.
            Glibc.exit(0)
        }

        let socketFile = SocketFile(
            path: socket
                ?? DefaultSocketPath.resolve(
                    environment: ProcessEnvironment.value, uid: getuid()))
        do {
            try socketFile.prepareDirectory()
            try socketFile.lock()
            try socketFile.claim()
        } catch {
            Self.printError("menud: \(error)")
            throw ExitCode.failure
        }

        let statePath = noState ? nil : (state ?? StateStore.defaultPath())
        let daemon: Daemon
        do {
            let loop = try EventLoop()
            if !ThreadPriority.shortenLoopSlice() {
                logger.debug(
                    "the kernel refused the loop a short scheduler slice: \(String(cString: strerror(errno)))"
                )
            }
            let store = statePath.map { StateStore(path: $0, loop: loop, logger: logger) }
            let processes = ProcessTable(loop: loop)
            let service = MenuService(
                config: menuConfig, location: location, store: store, processes: processes,
                childrenTimeout: .nanoseconds(Int64(childrenTimeout * 1e9)),
                onChangeTimeout: .nanoseconds(Int64(onChangeTimeout * 1e9)), loop: loop, logger: logger)
            let dispatcher = Dispatcher(service: service, commands: .standard)
            let server = try MenuServer(
                loop: loop, socket: socketFile, dispatcher: dispatcher,
                stallTimeout: .nanoseconds(Int64(stallTimeout * 1e9)),
                connectionLimit: ConnectionCount.limit(forOpenFileLimit: openFiles), logger: logger)
            daemon = try Daemon(
                loop: loop, dispatcher: dispatcher, processes: processes, server: server, watch: !noWatch,
                logger: logger)
            if let store {
                service.persistence.restore(store.read())
                logger.info("state file \(store.path)")
            }
            service.loadOpenGroups()
            service.followLiveValues()
            if let awaited = location.awaited {
                logger.info("no config at \(awaited); serving the built-in menu")
            } else {
                logger.info("serving \(menuConfig.file)")
            }
            try server.start()
            daemon.followTraySetting(always: tray)
        } catch {
            Self.printError("menud: \(error)")
            throw ExitCode.failure
        }
        daemon.run()
        if daemon.finalSaveFailed { throw ExitCode.failure }
    }

    private static func printError(_ message: String) { WriteAll.errorLine(message) }
}
