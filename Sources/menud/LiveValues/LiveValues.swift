import Logging
import MenuCore
import MenuLoop

/// The values part: what the menu's value nodes read from the system. It runs their
/// `value-cmd`s (at start, when their group opens, after their `on-change`, and on
/// their `interval`) and keeps their `value-listen` commands running, and hands each
/// line on (``onReading``) for the service to apply to the model.
///
/// Nodes are named by path here, the edge where processes meet the menu: a command
/// outlives the numbering of the model that started it (a reload, a group's children
/// arriving). Nodes with the same interval share one timer.
///
/// The `value-cmd` runs asked for are started one per turn of the loop, in order
/// (``queue``): starting a command holds the loop until the child has `exec`ed, a
/// millisecond or more on a busy machine, so a thousand nodes read at once would
/// keep every client waiting for seconds. One a turn, the clients are answered
/// between them, and the loop does not sleep until the last has started.
final class LiveValues {
    /// A line read from node `path`'s source, or why none could be.
    var onReading: ((_ path: String, _ line: Result<String, SourceFailure>) -> Void)?
    /// The nodes whose `value-cmd` opening their group runs.
    var commandIndex = ValueCommandIndex()
    /// The last report of each node whose readings the log was told of, so that a
    /// source printing garbage many times a second does not flood it.
    var readingLogs = LogThrottles<String>(interval: .seconds(60))

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    /// The sources followed, by path.
    private var sources: [String: ValueSource] = [:]
    private var listeners: [String: ValueListener] = [:]
    /// One timer per interval, with the paths it reads.
    private var pollers: [Duration: (timer: LoopTimer, paths: [String])] = [:]
    /// The `value-cmd` runs asked for and not yet ended, by path.
    private var runs: [String: Run] = [:]
    /// The paths whose runs are ``Run/queued``, in the order asked, from `queueStart`.
    private var queue: [String] = []
    private var queueStart = 0
    /// Starts the next queued run on each turn of the loop while there is one.
    private let starter: EachTurn
    /// Whether the log has said that polling falls behind: once is enough.
    private var saidPollingIsLate = false

    private enum Run {
        /// Waiting for its turn: asking again changes nothing, it has not read yet.
        case queued
        /// Under way; `again` when it was asked for meanwhile, to run once more after.
        case started(again: Bool)
    }
    /// Nodes whose `on-change` runs, or ended less than ``settleTime`` ago, with how
    /// many runs, and the last line their source printed meanwhile (see
    /// ``hookStarted(_:)``).
    private var hooks: [String: (count: Int, held: Result<String, SourceFailure>?)] = [:]
    /// The timers that end each node's settle time after its last `on-change` ended.
    private var settling: [String: LoopTimer] = [:]
    /// How long after `on-change` ends its source's reports are still held: a sound
    /// server's report of the value being replaced can come after the command that
    /// set the new one has ended, and would flicker the row back.
    static let settleTime = Duration.milliseconds(500)
    /// The last line from each source, for a new model of the same menu (a reload).
    private(set) var lastLines: [String: Result<String, SourceFailure>] = [:]

    init(processes: ProcessTable, missing: MissingPrograms, loop: EventLoop, logger: Logger) {
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
        starter = EachTurn(loop: loop)
        starter.onRun = { [weak self] in self?.startNext() }
    }

    /// Whether any node reads from the system: most menus have none, and commits ask.
    var isEmpty: Bool { sources.isEmpty }

    /// Whether the node at `path` has a `value-cmd`.
    func hasCommand(_ path: String) -> Bool { sources[path]?.command != nil }

    /// Follows `wanted`, the sources of the model now served: a listener whose
    /// command is unchanged keeps running, one whose node is gone or changed is
    /// stopped, and new ones start. Returns the paths whose sources are new or changed.
    @discardableResult
    func follow(_ wanted: [String: ValueSource]) -> [String] {
        let changed = wanted.filter { sources[$0.key] != $0.value }.map(\.key).sorted()
        for (path, listener) in listeners where wanted[path]?.listen != listener.command {
            listener.stop()
            listeners[path] = nil
        }
        for path in sources.keys where wanted[path] == nil {
            lastLines[path] = nil
            hooks[path] = nil
            settling.removeValue(forKey: path)?.close()
        }
        sources = wanted
        for (path, source) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let command = source.listen, listeners[path] == nil else { continue }
            let listener = ValueListener(
                path: path, command: command, processes: processes, missing: missing, loop: loop,
                logger: logger)
            listener.onLine = { [weak self] line in self?.deliver(line, from: path) }
            listeners[path] = listener
            listener.start()
        }
        followIntervals()
        return changed
    }

    /// Runs the `value-cmd` of the node at `path` at the loop's next turn (after those
    /// asked for before), unless one waits for its turn already; if one is under way,
    /// once more after it, so that what it reads is no older than this call.
    ///
    /// Returns whether a run had been asked for before and has not ended: the node's
    /// reads are asked for faster than they run.
    @discardableResult
    func read(_ path: String) -> Bool {
        guard sources[path]?.command != nil else { return false }
        switch runs[path] {
        case .queued: return true
        case .started:
            runs[path] = .started(again: true)
            return true
        case nil:
            runs[path] = .queued
            queue.append(path)
            starter.start()
            return false
        }
    }

    /// Starts the first queued run whose node still has a command.
    private func startNext() {
        while queueStart < queue.count {
            let path = queue[queueStart]
            queueStart += 1
            guard let command = sources[path]?.command else {
                runs[path] = nil
                continue
            }
            start(command, for: path)
            break
        }
        guard queueStart == queue.count else {
            // Under a load that never lets the queue drain, what was started is let go
            // of all the same, so that the queue holds no more than the nodes waiting.
            if queueStart >= 1024, queueStart * 2 >= queue.count {
                queue.removeFirst(queueStart)
                queueStart = 0
            }
            return
        }
        queue.removeAll(keepingCapacity: queue.count <= 1024)
        queueStart = 0
        starter.stop()
    }

    private func start(_ command: String, for path: String) {
        runs[path] = .started(again: false)
        ValueCommandRun.start(command, path: path, processes: processes, missing: missing) {
            [weak self] line in
            guard let self else { return }
            var again = false
            if case .started(let asked) = runs.removeValue(forKey: path) { again = asked }
            // A line from a command the node no longer has is dropped; the read asked
            // for meanwhile (the new command's first) still runs.
            if sources[path]?.command == command { deliver(line, from: path) }
            if again { read(path) }
        }
    }

    /// The node's `on-change` started. Until it ends, what its source reports is
    /// held back, so that a listener's report of the value being replaced does not
    /// flicker over the user's: the user's value shows at once.
    func hookStarted(_ path: String) {
        guard sources[path] != nil else { return }
        settling.removeValue(forKey: path)?.close()
        hooks[path, default: (0, nil)].count += 1
    }

    /// The node's `on-change` ended: the `value-cmd` reads the value anew, and what
    /// the source reports is still held for ``settleTime``; then the last report held
    /// back is applied (the system may have clamped the value), and from then on the
    /// system's reports apply as they come.
    func hookEnded(_ path: String) {
        guard var hook = hooks[path], hook.count > 0 else { return }
        hook.count -= 1
        hooks[path] = hook
        guard hook.count == 0 else { return }
        let timer = LoopTimer(loop: loop)
        timer.onFire = { [weak self] in self?.settled(path) }
        timer.start(after: Self.settleTime)
        settling[path] = timer
        read(path)
    }

    /// The settle time after the node's last `on-change` is over.
    private func settled(_ path: String) {
        settling.removeValue(forKey: path)?.close()
        guard let hook = hooks.removeValue(forKey: path) else { return }
        if let held = hook.held { deliver(held, from: path) }
    }

    /// Stops every listener and timer, for the daemon's stop. The `value-cmd` runs
    /// still going end with the daemon (``ProcessTable/close()``).
    func close() {
        for listener in listeners.values { listener.stop() }
        listeners = [:]
        for poller in pollers.values { poller.timer.close() }
        pollers = [:]
        for timer in settling.values { timer.close() }
        settling = [:]
        starter.close()
        queue = []
        queueStart = 0
        sources = [:]
    }

    private func deliver(_ line: Result<String, SourceFailure>, from path: String) {
        guard sources[path] != nil else { return }
        if hooks[path] != nil {
            hooks[path]?.held = line
            return
        }
        lastLines[path] = line
        onReading?(path, line)
    }

    /// One repeating timer per distinct interval, reading all of its nodes.
    private func followIntervals() {
        var wanted: [Duration: [String]] = [:]
        for (path, source) in sources {
            if let interval = source.interval, source.command != nil {
                wanted[interval, default: []].append(path)
            }
        }
        for (interval, poller) in pollers where wanted[interval] == nil {
            poller.timer.close()
            pollers[interval] = nil
        }
        for (interval, paths) in wanted {
            let sorted = paths.sorted()
            if let poller = pollers[interval] {
                pollers[interval] = (poller.timer, sorted)
                continue
            }
            let timer = LoopTimer(loop: loop)
            timer.onFire = { [weak self] in
                guard let self else { return }
                var late = 0
                for path in pollers[interval]?.paths ?? [] where read(path) { late += 1 }
                if late > 0, !saidPollingIsLate {
                    saidPollingIsLate = true
                    logger.warning(
                        "value-cmd polling cannot keep up: \(late) nodes read every \(Value.format(interval.seconds)) s were still waiting or running when it came round; each is read again once its run ends"
                    )
                }
            }
            timer.start(after: interval, repeating: interval)
            pollers[interval] = (timer, sorted)
        }
    }
}
