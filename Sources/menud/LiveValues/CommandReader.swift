import Logging
import MenuCore
import MenuLoop

/// The `value-cmd` reader: runs each node's command when asked (at start, when its
/// group opens, after its `on-change`) and on its `interval`; nodes with the same
/// interval share one timer.
///
/// The runs asked for are started one per turn of the loop, in order (``queue``):
/// starting a command holds the loop until the child has `exec`ed, a millisecond or
/// more on a busy machine, so a thousand nodes read at once would keep every client
/// waiting for seconds. One a turn, the clients are answered between them, and the
/// loop does not sleep until the last has started.
final class CommandReader: ValueReader {
    var onLine: ((_ path: String, _ line: Result<String, SourceFailure>) -> Void)?

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    /// The commands followed, by path.
    private var sources: [String: ValueSource] = [:]
    /// One timer per interval, with the paths it reads.
    private var pollers: [Duration: (timer: LoopTimer, paths: [String])] = [:]
    /// The runs asked for and not yet ended, by path.
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

    init(processes: ProcessTable, missing: MissingPrograms, loop: EventLoop, logger: Logger) {
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
        starter = EachTurn(loop: loop)
        starter.onRun = { [weak self] in self?.startNext() }
    }

    func follow(_ wanted: [String: ValueSource]) {
        sources = wanted
        followIntervals()
    }

    /// Runs the command of the node at `path` at the loop's next turn (after those
    /// asked for before), unless one waits for its turn already; if one is under way,
    /// once more after it, so that what it reads is no older than this call.
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

    /// Stops the timers; the runs still going end with the daemon
    /// (``ProcessTable/close()``).
    func close() {
        for poller in pollers.values { poller.timer.close() }
        pollers = [:]
        starter.close()
        queue = []
        queueStart = 0
        sources = [:]
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
            if sources[path]?.command == command { onLine?(path, line) }
            if again { read(path) }
        }
    }

    /// One repeating timer per distinct interval, reading all of its nodes.
    private func followIntervals() {
        var wanted: [Duration: [String]] = [:]
        for (path, source) in sources {
            if let interval = source.interval { wanted[interval, default: []].append(path) }
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
