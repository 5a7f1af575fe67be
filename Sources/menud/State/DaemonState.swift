import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Everything the command handlers act on. The model is not thread-safe, so one
/// instance lives on the daemon's single event loop and is only ever touched there
/// (see ``MenuServer``); handlers receive it as a parameter rather than finding it.
final class DaemonState {
    /// Replaced as a whole by a reload.
    var model: MenuModel {
        didSet { rowRecords = RowRecordCache() }
    }
    /// The rows' records as `get` and `row` last wrote them, for this model.
    var rowRecords = RowRecordCache()
    let commands: CommandTable
    let logger: Logger
    let events: EventHub
    let loop: EventLoop
    /// Nil with `--no-state`.
    let store: StateStore?
    /// Where the config comes from, to load it again on reload. The built-in menu
    /// becomes a file when a reload finds one at a default path.
    var location: ConfigLocation
    /// Told when ``location`` changed, for the config watch to follow it.
    var onLocationChange: (() -> Void)?
    /// The config as last loaded successfully.
    var config: MenuConfig
    /// The children last printed by each `children-cmd` group's command, by path,
    /// until the group is closed. Commands are re-run when the group opens again.
    var loadedChildren: [String: LoadedChildren] = [:]
    /// Runs under way, so that two requests opening one group share a run.
    var childrenLoads: [String: Completion<Void>] = [:]
    /// The `children-cmd` groups of the current model, by path, with their commands.
    var commandGroups: [String: String]
    /// How long a `children-cmd` may take.
    let childrenTimeout: Duration
    /// How long an `on-change` command may run before it is killed.
    let onChangeTimeout: Duration
    /// The processes started and not yet ended, by pid, with their timeouts: closed
    /// at shutdown, so that the loop can end without waiting for them. Those that end
    /// with the daemon are signalled then too.
    var processes: [Int32: (process: ChildProcess, deadline: LoopTimer?, endsWithDaemon: Bool)] = [:]
    /// The write that will carry the changes made since the last one; made on first use.
    private var saveTimer: LoopTimer?
    /// The `on-change` hooks whose last run failed, by path, with their log throttle.
    var failingHooks: [String: LogThrottle] = [:]
    /// How often a hook that keeps failing is logged.
    static let failureLogInterval = Duration.seconds(60)
    /// Set by ``close()``: no write is scheduled after it, which would keep the loop
    /// running.
    private(set) var isClosed = false
    /// The state file's entries for nodes the current menu lacks, written back as they
    /// were read: a run that serves another menu (the built-in one while the config
    /// is missing, or an editor's half-saved config) must not lose them. They apply
    /// again when a reload brings their node back.
    var keptState: [StateEntry] = []
    /// The reloads asked for and the one under way (``reload(because:)``).
    var reloads = ReloadQueue()
    /// How long a change waits for others to join it in one write.
    static let saveDelay = Duration.milliseconds(250)
    /// How soon a failed write is tried again: a disk that filled up or turned
    /// read-only may come back without any change from a client to trigger a write.
    static let saveRetryDelay = Duration.seconds(1)
    /// The focus cursors `nav` moves and every render shows. They are not part of the
    /// model's undo journal, which is why `nav` and `focus` cannot be batched.
    var focus = FocusCursors()
    /// Told after a reload succeeded, for what follows the config's settings (the tray).
    var onReload: (() -> Void)?
    /// The replies waiting for children-cmd groups, each gathering every change
    /// committed meanwhile (``recordChanges()``).
    private var recorders: [ChangeRecorder] = []

    init(
        config: MenuConfig, location: ConfigLocation, commands: CommandTable, store: StateStore?,
        childrenTimeout: Duration = .seconds(5), onChangeTimeout: Duration = .seconds(10), loop: EventLoop,
        logger: Logger
    ) {
        self.config = config
        self.location = location
        let filled = config.fillingChildren { _ in [.loadingRow] }
        self.model = MenuModel(config: filled)
        self.commandGroups = filled.childrenCommands
        self.childrenTimeout = childrenTimeout
        self.onChangeTimeout = onChangeTimeout
        self.commands = commands
        self.store = store
        self.loop = loop
        self.logger = logger
        self.events = EventHub(logger: logger)
        reloads.lastRead = location.path.flatMap(FileSignature.of)
    }

    /// What follows a change, once the reply to the command that made it is written:
    /// the subscribers hear of it, the state file will, and changed values run their
    /// `on-change` commands (only for what a client did: a reload or a group's
    /// children arriving is not the user changing a value).
    func commit(_ output: borrowing CommandOutput, runOnChange: Bool = true) {
        if output.hasEvents { events.publish(output.events, changes: output.changes) }
        guard output.hasChanges else { return }
        let changes = output.changes
        for recorder in recorders { recorder.add(changes) }
        scheduleSave()
        forgetChildrenOfCollapsedGroups(changes)
        // A group opened without its children gets them; a reply that waits for
        // them shares the run (``unloadedGroups(openedBy:)``).
        if changes.contains(where: { !$0.expansionChanged.isEmpty }) { loadOpenGroups() }
        if runOnChange {
            for change in changes {
                for n in change.valueChanged {
                    guard let command = model.onChangeCommand(of: n) else { continue }
                    self.runOnChange(command, node: n, path: model.path(of: n))
                }
            }
        }
    }

    /// Starts gathering the changes committed from now on, until
    /// ``stopRecording(_:)``.
    func recordChanges() -> ChangeRecorder {
        let recorder = ChangeRecorder()
        recorders.append(recorder)
        return recorder
    }

    /// Stops `recorder` and returns what it gathered as one change: from the rows
    /// before the first to the rows now.
    func stopRecording(_ recorder: ChangeRecorder) -> Change {
        recorders.removeAll { $0 === recorder }
        return recorder.change
    }

    /// Carries what the recorders gathered from `old`'s node numbers into the
    /// model's, which has just replaced it.
    func renumberRecordings(from old: MenuModel) {
        for recorder in recorders {
            recorder.change = recorder.change.renumbered { [model] in model.node(samePathAs: $0, in: old) }
        }
    }

    /// Writes the state soon: a burst of changes becomes one write.
    func scheduleSave(in delay: Duration = saveDelay) {
        guard store != nil, !isClosed, saveTimer?.isActive != true else { return }
        let timer = saveTimer ?? LoopTimer(loop: loop)
        if saveTimer == nil {
            saveTimer = timer
            timer.onFire = { [weak self] in _ = self?.saveNow() }
        }
        timer.start(after: delay)
    }

    /// Writes the state now (for `save` and at shutdown). A write that fails is tried
    /// again every ``saveRetryDelay``, whoever asked for it: a `save` that fails must
    /// not cancel the retry of the write it replaced.
    func saveNow() -> Completion<Void> {
        saveTimer?.stop()
        guard let store else {
            return .failed(ProtocolError(.saveFailed, "state saving is off (--no-state)"))
        }
        let written = store.write(model.snapshot(), kept: keptState)
        written.whenComplete { [weak self] result in
            if case .failure = result { self?.scheduleSave(in: Self.saveRetryDelay) }
        }
        return written.mapError { ProtocolError(.saveFailed, "\($0)") }
    }

    /// Closes what keeps the loop running: the save timer, and the watches of the
    /// processes still running. For the end of a graceful stop. Most of those go on,
    /// unwatched: an application started by `exec`, or an `on-change` command still
    /// applying a value. Those that end with the daemon (`children-cmd`) are sent
    /// SIGTERM with their process groups: nothing will read their output, and
    /// nothing would end them after their timeout. The children-cmd runs still
    /// awaited are dropped too: they will never complete, and a connection holding
    /// its reply for one is held by it in turn.
    func close() {
        isClosed = true
        saveTimer?.close()
        saveTimer = nil
        for (process, deadline, endsWithDaemon) in processes.values {
            deadline?.close()
            if endsWithDaemon { process.killGroup(SIGTERM) }
            process.close()
        }
        processes = [:]
        childrenLoads = [:]
    }
}
