import Logging
import MenuCore
import NIOCore

/// Everything the command handlers act on. The model is not thread-safe, so one
/// instance lives on the daemon's single event loop and is only ever touched there
/// (see ``MenuServer``); handlers receive it as a parameter rather than finding it.
final class DaemonState {
    /// Replaced as a whole by a reload or by a group's children arriving.
    var model: MenuModel
    let commands: CommandTable
    let launcher: CommandLauncher
    let logger: Logger
    let events: EventHub
    let loop: EventLoop
    /// Nil with `--no-state`.
    let store: StateStore?
    /// Where the config comes from, to load it again on reload.
    let location: ConfigLocation
    /// The config as last loaded successfully.
    var config: MenuConfig
    /// The write that will carry the changes made since the last one.
    private var pendingSave: Scheduled<Void>?
    /// How long a change waits for others to join it in one write.
    static let saveDelay = TimeAmount.milliseconds(250)

    init(
        config: MenuConfig, location: ConfigLocation, commands: CommandTable, launcher: CommandLauncher,
        store: StateStore?, loop: EventLoop, logger: Logger
    ) {
        self.config = config
        self.location = location
        self.model = MenuModel(config: config)
        self.commands = commands
        self.launcher = launcher
        self.store = store
        self.loop = loop
        self.logger = logger
        self.events = EventHub(logger: logger)
    }

    /// What follows a command that succeeded, once its reply is written: the
    /// subscribers hear of it and the state file will.
    func commit(_ output: CommandOutput) {
        events.publish(output.events)
        if !output.changes.isEmpty { scheduleSave() }
    }

    /// Writes the state soon: a burst of changes becomes one write.
    func scheduleSave() {
        guard store != nil, pendingSave == nil else { return }
        pendingSave = loop.assumeIsolated().scheduleTask(in: Self.saveDelay) {
            self.pendingSave = nil
            _ = self.saveNow()
        }
    }

    /// Writes the state now (for `save` and at shutdown).
    func saveNow() -> EventLoopFuture<Void> {
        pendingSave?.cancel()
        pendingSave = nil
        guard let store else {
            return loop.makeFailedFuture(ProtocolError(.saveFailed, "state saving is off (--no-state)"))
        }
        return store.write(StateFileFormat.encode(model.exportState())).flatMapErrorThrowing { error in
            throw ProtocolError(.saveFailed, "\(error)")
        }
    }
}
