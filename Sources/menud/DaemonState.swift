import Logging
import MenuCore
import MenuProtocol
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
    /// Exit statuses of the children whose ending matters (on-change, children-cmd).
    let children = ChildExits()
    let loop: EventLoop
    /// Nil with `--no-state`.
    let store: StateStore?
    /// Where the config comes from, to load it again on reload.
    let location: ConfigLocation
    /// The config as last loaded successfully.
    var config: MenuConfig
    /// The children last printed by each `children-cmd` group's command, by path,
    /// until the group is closed. Commands are re-run when the group opens again.
    var loadedChildren: [String: (command: String, children: [NodeSpec])] = [:]
    /// Runs under way, so that two requests opening one group share a run.
    var childrenLoads: [String: EventLoopFuture<Void>] = [:]
    /// The `children-cmd` groups of the current model, by path, with their commands.
    var commandGroups: [String: String]
    /// How long a `children-cmd` may take.
    let childrenTimeout: TimeAmount
    /// How long an `on-change` command may run before it is killed.
    let onChangeTimeout: TimeAmount
    /// The write that will carry the changes made since the last one.
    private var pendingSave: Scheduled<Void>?
    /// How long a change waits for others to join it in one write.
    static let saveDelay = TimeAmount.milliseconds(250)
    /// How soon a failed write is tried again: a disk that filled up or turned
    /// read-only may come back without any change from a client to trigger a write.
    static let saveRetryDelay = TimeAmount.seconds(1)
    /// The focus cursors `nav` moves and every render shows. They are not part of the
    /// model's undo journal, which is why `nav` and `focus` cannot be batched.
    var focus = FocusCursors()

    init(
        config: MenuConfig, location: ConfigLocation, commands: CommandTable, launcher: CommandLauncher,
        store: StateStore?, childrenTimeout: TimeAmount = .seconds(5),
        onChangeTimeout: TimeAmount = .seconds(10), loop: EventLoop, logger: Logger
    ) {
        self.config = config
        self.location = location
        let filled = config.fillingChildren { _ in [.loadingRow] }
        self.model = MenuModel(config: filled)
        self.commandGroups = filled.childrenCommands
        self.childrenTimeout = childrenTimeout
        self.onChangeTimeout = onChangeTimeout
        self.commands = commands
        self.launcher = launcher
        self.store = store
        self.loop = loop
        self.logger = logger
        self.events = EventHub(logger: logger)
    }

    /// What follows a change, once the reply to the command that made it is written:
    /// the subscribers hear of it, the state file will, and changed values run their
    /// `on-change` commands (only for what a client did: a reload or a group's
    /// children arriving is not the user changing a value).
    func commit(_ output: CommandOutput, runOnChange: Bool = true) {
        if output.hasEvents { events.publish(output.events) }
        guard output.hasChanges else { return }
        let changes = output.changes
        scheduleSave()
        forgetChildrenOfCollapsedGroups(changes)
        // Commands that open groups without a dry run (`nav`) still get children.
        if changes.contains(where: { !$0.expansionChanged.isEmpty }) { loadOpenGroups() }
        if runOnChange {
            for change in changes {
                for path in change.valueChanged { self.runOnChange(path) }
            }
        }
    }

    /// Writes the state soon: a burst of changes becomes one write.
    func scheduleSave(in delay: TimeAmount = saveDelay) {
        guard store != nil, pendingSave == nil else { return }
        pendingSave = loop.assumeIsolated().scheduleTask(in: delay) {
            self.pendingSave = nil
            self.saveNow().assumeIsolated().whenFailure { _ in self.scheduleSave(in: Self.saveRetryDelay) }
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
