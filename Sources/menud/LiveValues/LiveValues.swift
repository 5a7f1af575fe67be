import Logging
import MenuCore
import MenuLoop

/// The values part: what the menu's value nodes read from the system, and the
/// `on-change` commands their changes run (``runOnChange(_:node:path:value:)``). Each kind of
/// source (``ValueSourceKind``) has its ``ValueReader``: the `value-cmd` runs (at
/// start, when their group opens, after their `on-change`, and on their `interval`)
/// and the `value-listen` commands kept running. This part follows the model's
/// sources, holds what a source reports while the node's `on-change` runs, and hands
/// each line on (``onReading``) for the service to apply to the model.
///
/// Nodes are kept by number, renumbered with the model's (``renumber(_:)``); a
/// command or timer holds a ``NodeRef`` to its node, whose numbering it outlives (a
/// reload, a group's children arriving), and the path is spelled once, when a
/// command starts, for its environment and its log lines.
final class LiveValues {
    /// A line read from node `n`'s source, or why none could be.
    var onReading: ((_ n: Int, _ line: Result<String, SourceFailure>) -> Void)?
    /// The nodes whose `value-cmd` opening their group runs.
    var commandIndex = ValueCommandIndex()
    /// The last report of each node whose readings the log was told of, so that a
    /// source printing garbage many times a second does not flood it.
    var readingLogs = LogThrottles<Int>(interval: .seconds(60))

    let logger: Logger
    private let loop: EventLoop
    private let refs: NodeRefs
    /// The values' `on-change` commands.
    private let hooks: OnChangeHooks
    /// The sources followed, by node.
    private var sources: [Int: ValueSource] = [:]
    /// One reader per kind of source, in ``ValueSourceKind``'s order.
    private let readers: [any ValueReader]
    /// The reader of system services, which also takes a user's changes to them.
    private let systemReader: SystemReader
    /// Nodes whose `on-change` runs, or ended less than ``settleTime`` ago, with how
    /// many runs, and the last line their source printed meanwhile (see
    /// ``hookStarted(_:)``).
    private var changing: [Int: (count: Int, held: Result<String, SourceFailure>?)] = [:]
    /// The timers that end each node's settle time after its last `on-change` ended.
    private var settling: [Int: LoopTimer] = [:]
    /// How long after `on-change` ends its source's reports are still held: a sound
    /// server's report of the value being replaced can come after the command that
    /// set the new one has ended, and would flicker the row back.
    static let settleTime = Duration.milliseconds(500)
    /// The last line from each source, for a new model of the same menu (a reload).
    private(set) var lastLines: [Int: Result<String, SourceFailure>] = [:]

    init(
        processes: ProcessTable, missing: MissingPrograms, onChangeTimeout: Duration, refs: NodeRefs,
        system: SystemServices, loop: EventLoop, logger: Logger
    ) {
        self.loop = loop
        self.refs = refs
        self.logger = logger
        hooks = OnChangeHooks(
            processes: processes, missing: missing, timeout: onChangeTimeout, logger: logger)
        let systemReader = SystemReader(system: system)
        self.systemReader = systemReader
        readers = ValueSourceKind.allCases.map { kind -> any ValueReader in
            switch kind {
            case .command:
                CommandReader(processes: processes, missing: missing, refs: refs, loop: loop, logger: logger)
            case .listen:
                ListenReader(processes: processes, missing: missing, refs: refs, loop: loop, logger: logger)
            case .system: systemReader
            }
        }
        for reader in readers {
            reader.onLine = { [weak self] n, line in self?.deliver(line, from: n) }
        }
        system.onReadings = { [weak systemReader] in systemReader?.readingsChanged() }
    }

    /// Whether any node reads from the system: most menus have none, and commits ask.
    var isEmpty: Bool { sources.isEmpty }

    /// Follows `wanted`, the sources of the model now served: each reader keeps what
    /// is unchanged, stops what is gone or changed, and starts what is new, its
    /// commands told the node's path by `path`. Returns the nodes whose sources are
    /// new or changed.
    @discardableResult
    func follow(_ wanted: [Int: ValueSource], path: (Int) -> String) -> [Int] {
        let changed = wanted.filter { sources[$0.key] != $0.value }.map(\.key).sorted()
        for n in sources.keys where wanted[n] == nil {
            lastLines[n] = nil
            changing[n] = nil
            settling.removeValue(forKey: n)?.close()
        }
        sources = wanted
        for (kind, reader) in zip(ValueSourceKind.allCases, readers) {
            reader.follow(wanted.compactMapValues { kind.part(of: $0) }, path: path)
        }
        // A service followed already has its answer: the node shows it at once.
        for n in changed where wanted[n]?.system != nil {
            if let line = systemReader.current(n) { lastLines[n] = line }
        }
        return changed
    }

    /// Reads node `n` now, where its kinds of source read on demand (a `value-cmd`:
    /// at the loop's next turn, after those asked for before, or once more after the
    /// run under way, so that what it reads is no older than this call).
    ///
    /// Returns whether a read had been asked for before and has not ended: the node's
    /// reads are asked for faster than they run.
    @discardableResult
    func read(_ n: Int) -> Bool {
        var late = false
        for reader in readers where reader.read(n) { late = true }
        return late
    }

    /// Every table, the readers' and the hooks', after the model's nodes moved.
    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        sources = sources.renumbered(number)
        changing = changing.renumbered(number)
        for (n, timer) in settling where number(n) == nil { timer.close() }
        settling = settling.renumbered(number)
        lastLines = lastLines.renumbered(number)
        readingLogs.rekey { number($0) }
        commandIndex = commandIndex.renumbered(number)
        for reader in readers { reader.renumber(number) }
        hooks.renumber(number)
    }

    /// Hands `value`, the user's change of node `n`, to the system service it shows.
    func apply(_ value: Value, to n: Int) {
        systemReader.apply(value, to: n)
    }

    /// Runs `command`, the `on-change` of node `n` at `path`, whose value is now
    /// `value` (``OnChangeHooks/run(_:node:path:value:ended:)``).
    func runOnChange(_ command: String, node n: Int, path: String, value: String) {
        hookStarted(n)
        let node = refs.ref(n)
        hooks.run(command, node: node, path: path, value: value) { [weak self] in
            if let n = node.node { self?.hookEnded(n) }
        }
    }

    /// The node's `on-change` started. Until it ends, what its source reports is
    /// held back, so that a listener's report of the value being replaced does not
    /// flicker over the user's: the user's value shows at once.
    private func hookStarted(_ n: Int) {
        guard sources[n] != nil else { return }
        settling.removeValue(forKey: n)?.close()
        changing[n, default: (0, nil)].count += 1
    }

    /// The node's `on-change` ended: the `value-cmd` reads the value anew, and what
    /// the source reports is still held for ``settleTime``; then the last report held
    /// back is applied (the system may have clamped the value), and from then on the
    /// system's reports apply as they come.
    private func hookEnded(_ n: Int) {
        guard var hook = changing[n], hook.count > 0 else { return }
        hook.count -= 1
        changing[n] = hook
        guard hook.count == 0 else { return }
        let timer = LoopTimer(loop: loop)
        let node = refs.ref(n)
        timer.onFire = { [weak self] in
            if let n = node.node { self?.settled(n) }
        }
        timer.start(after: Self.settleTime)
        settling[n] = timer
        read(n)
    }

    /// The settle time after the node's last `on-change` is over.
    private func settled(_ n: Int) {
        settling.removeValue(forKey: n)?.close()
        guard let hook = changing.removeValue(forKey: n) else { return }
        if let held = hook.held { deliver(held, from: n) }
    }

    /// Stops every reader and timer, for the daemon's stop. The `value-cmd` runs
    /// still going end with the daemon (``ProcessTable/close()``).
    func close() {
        for reader in readers { reader.close() }
        for timer in settling.values { timer.close() }
        settling = [:]
        sources = [:]
    }

    private func deliver(_ line: Result<String, SourceFailure>, from n: Int) {
        guard sources[n] != nil else { return }
        if changing[n] != nil {
            changing[n]?.held = line
            return
        }
        lastLines[n] = line
        onReading?(n, line)
    }
}
