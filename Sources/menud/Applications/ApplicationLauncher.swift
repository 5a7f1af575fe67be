import Logging
import MenuApplications
import MenuBus
import MenuLoop
import MenuProtocol

/// Starts the applications of the applications menu, never through a shell: the
/// entry's program with its arguments (``ApplicationLaunch/arguments``), in the
/// user's terminal for `Terminal=true` (`$TERMINAL`, else `x-terminal-emulator`,
/// with `-e`), detached and reaped like an item's `exec`. An application with
/// `DBusActivatable=true` is activated over the session bus instead
/// (`org.freedesktop.Application`), while there is one; without a bus, or when the
/// bus knows no such service, it is started from its `Exec`.
final class ApplicationLauncher {
    /// What the `ran` record says of a start: the process id (`-` for a D-Bus
    /// activation, which has none of its own) and what was started.
    struct Started {
        var pid: String
        var shown: String
    }

    private let processes: ProcessTable
    private let loop: EventLoop
    private let logger: Logger
    private var bus: BusConnection?
    /// Why there is no bus, as logged: said once until it changes.
    private var busFailure: String?

    init(processes: ProcessTable, loop: EventLoop, logger: Logger) {
        self.processes = processes
        self.loop = loop
        self.logger = logger
    }

    /// Starts `launch`, the item at `path`. Throws when the program cannot start, as
    /// an item's `exec` does.
    func start(_ launch: ApplicationLaunch, path: String) throws(ProtocolError) -> Started {
        if let name = launch.busName, let objectPath = launch.objectPath, let bus = sessionBus() {
            activate(launch, name: name, objectPath: objectPath, on: bus, path: path)
            return Started(pid: "-", shown: "D-Bus activation of \(name)")
        }
        return try exec(launch, path: path)
    }

    /// Starts an item's `exec`, `command`, through the shell, detached and reaped.
    func startItem(_ command: String, at path: String) throws(ProtocolError) -> Started {
        let pid = try processes.startItem(.shell(command), shown: command, at: path, logger: logger)
        return Started(pid: String(pid), shown: command)
    }

    func close() {
        bus?.close()
        bus = nil
    }

    private func exec(_ launch: ApplicationLaunch, path: String) throws(ProtocolError) -> Started {
        guard !launch.arguments.isEmpty else {
            throw ProtocolError(
                .activationFailed, "\(launch.name) is started only over D-Bus, and there is no bus")
        }
        var arguments = launch.arguments
        if launch.terminal {
            let terminal = ProcessEnvironment.value("TERMINAL").flatMap { $0.isEmpty ? nil : $0 }
            arguments = [terminal ?? "x-terminal-emulator", "-e"] + arguments
        }
        let shown = DesktopExec.shown(arguments)
        let pid = try processes.startItem(.arguments(arguments), shown: shown, at: path, logger: logger)
        return Started(pid: String(pid), shown: shown)
    }

    /// `Activate`, or `ActivateAction` for an action, on the application's object. A
    /// bus that has no such service (nothing owns the name, and nothing can be
    /// started for it) falls back to the entry's `Exec`.
    private func activate(
        _ launch: ApplicationLaunch, name: String, objectPath: String, on bus: BusConnection, path: String
    ) {
        let platformData = BusValue.dictionary(value: "v", [])
        let arguments: [BusValue] =
            launch.action.map { [.string($0), .array(element: "v", []), platformData] } ?? [platformData]
        logger.info("activate \(path): activating \(name) over D-Bus")
        bus.call(
            destination: name, path: objectPath, interface: "org.freedesktop.Application",
            member: launch.action == nil ? "Activate" : "ActivateAction", arguments: arguments
        ) { [weak self] reply in
            guard case .failure(let error) = reply, let self else { return }
            let unknown =
                [
                    "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                ].contains(error.name) || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
            guard unknown, !launch.arguments.isEmpty else {
                self.logger.warning("activate \(path): D-Bus activation of \(name) failed: \(error)")
                return
            }
            self.logger.notice(
                "activate \(path): \(name) is not on the bus (\(error.name)); starting its Exec")
            do throws(ProtocolError) {
                _ = try self.exec(launch, path: path)
            } catch {
                self.logger.warning("activate \(path): \(error.message)")
            }
        }
    }

    /// The session bus, connected at the first D-Bus activation and again after it
    /// went away; nil, logged once, when there is none.
    private func sessionBus() -> BusConnection? {
        if let bus, !bus.isClosed { return bus }
        do throws(BusError) {
            let connection = try BusConnection(sessionBusOn: loop)
            connection.onDisconnect = { [weak self, logger] error in
                logger.notice("applications: the session bus went away (\(error))")
                self?.bus = nil
            }
            bus = connection
            busFailure = nil
            return connection
        } catch {
            let failure =
                "applications: no session bus (\(error)); starting D-Bus applications from their Exec"
            if failure != busFailure { logger.notice("\(failure)") }
            busFailure = failure
            return nil
        }
    }
}
