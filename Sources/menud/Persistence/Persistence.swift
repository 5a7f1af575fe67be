import Logging
import MenuCore
import MenuLoop
import MenuProtocol

/// The state file: what the user opened and set, written soon after each change
/// (a burst of changes is one write) and read back at start (docs/config.md,
/// "State"). Owns the store, the timer of the next write, and the entries that the
/// menu being served has no node for: those are kept and written back unchanged,
/// so that a run serving another menu loses nothing of the user's own.
final class Persistence {
    /// Nil with `--no-state`.
    let store: StateStore?
    private let menu: ServedMenu
    private let loop: EventLoop
    private let logger: Logger
    /// The write that will carry the changes made since the last one; made on first use.
    private var saveTimer: LoopTimer?
    /// Set by ``close()``: no write is scheduled after it, which would keep the loop
    /// running.
    private(set) var isClosed = false
    /// The state file's entries for nodes the current menu lacks, written back as they
    /// were read: a run that serves another menu (the built-in one while the config
    /// is missing, or an editor's half-saved config) must not lose them, nor may a
    /// `children-cmd` group that closed and was emptied. They apply again when a
    /// reload or a splice brings their node back.
    private(set) var keptState: [StateEntry] = []
    /// How long a change waits for others to join it in one write.
    static let saveDelay = Duration.milliseconds(250)
    /// How soon a failed write is tried again: a disk that filled up or turned
    /// read-only may come back without any change from a client to trigger a write.
    static let saveRetryDelay = Duration.seconds(1)

    init(store: StateStore?, menu: ServedMenu, loop: EventLoop, logger: Logger) {
        self.store = store
        self.menu = menu
        self.loop = loop
        self.logger = logger
    }

    /// Applies the state file's `entries` to the model at start. A node that reads
    /// its value from the system is not restored: its source is read instead, and
    /// the value saved may be long out of date.
    func restore(_ entries: [StateEntry]) {
        let model = menu.model
        let restored = entries.filter { entry in
            guard case .value = entry.field, let n = try? model.node(entry.path) else { return true }
            return model.valueSource(of: n) == nil
        }
        let (_, dropped) = model.importState(restored)
        keep(dropped, when: "state")
    }

    /// Takes the state a splice dropped: the entries of nodes it took away are kept
    /// (replacing older ones for the same node) until ``applyKept()`` finds their
    /// nodes again; the others, refused by a node that is still there, are logged.
    func hold(_ dropped: [DroppedState]) {
        guard !dropped.isEmpty else { return }
        var held = 0
        for d in dropped {
            if menu.model.tree.node(at: d.entry.path) == nil {
                keptState.removeAll { $0.path == d.entry.path && Self.sameKind($0.field, d.entry.field) }
                keptState.append(d.entry)
                held += 1
            } else {
                logger.notice("dropped \(LogText.cut(d.entry.description)): \(d.reason)")
            }
        }
        if held > 0 { scheduleSave() }
    }

    private static func sameKind(_ a: StateEntry.Field, _ b: StateEntry.Field) -> Bool {
        switch (a, b) {
        case (.expanded, .expanded), (.value, .value): return true
        default: return false
        }
    }

    /// Applies the kept entries whose nodes the menu has now, as a reload would; they
    /// are kept no longer. A node that reads its value from the system gets no saved
    /// value, as at start.
    func applyKept() -> Change {
        let model = menu.model
        var found: [StateEntry] = []
        keptState.removeAll { entry in
            guard let n = try? model.node(entry.path) else { return false }
            if case .value = entry.field, model.valueSource(of: n) != nil { return true }
            found.append(entry)
            return true
        }
        guard !found.isEmpty else { return Change() }
        let (change, dropped) = model.importState(found)
        for d in dropped { logger.notice("dropped \(LogText.cut(d.entry.description)): \(d.reason)") }
        scheduleSave()
        return change
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
    /// not cancel the retry of the write it replaced. `always`: written even when the
    /// file holds it already, or when there is no file and nothing to put in one: a
    /// user who asks for a save finds the file there after it.
    func saveNow(always: Bool = false) -> Completion<Void> {
        saveTimer?.stop()
        guard let store else {
            return .failed(ProtocolError(.saveFailed, "state saving is off (--no-state)"))
        }
        let written = store.write(menu.model.snapshot(), kept: keptState, always: always)
        written.whenComplete { [weak self] result in
            if case .failure = result { self?.scheduleSave(in: Self.saveRetryDelay) }
        }
        return written.mapError { ProtocolError(.saveFailed, "\($0)") }
    }

    /// Stops the save timer, which would keep the loop running; nothing is scheduled
    /// after this.
    func close() {
        isClosed = true
        saveTimer?.close()
        saveTimer = nil
    }

    /// Takes what applying state to the current model dropped: entries for nodes it
    /// lacks are kept, the rest (a node that no longer takes the value) are gone.
    /// Logged as one line per kind, however many: a state file may be large.
    func keep(_ dropped: [DroppedState], when: String) {
        var missing: [StateEntry] = []
        var refused: [DroppedState] = []
        for d in dropped {
            if menu.model.tree.node(at: d.entry.path) == nil {
                missing.append(d.entry)
            } else {
                refused.append(d)
            }
        }
        let previously = Set(keptState.map(\.path))
        let newlyKept = missing.filter { !previously.contains($0.path) }.count
        keptState = missing
        if newlyKept > 0 {
            logger.notice(
                "\(when): kept \(newlyKept) entries for nodes this menu lacks, such as \(LogText.cut(missing[0].description)); they apply again once the menu has their nodes"
            )
        }
        if let first = refused.first {
            logger.notice(
                "\(when): dropped \(refused.count) entries, such as \(LogText.cut(first.entry.description)): \(first.reason)"
            )
        }
    }
}
