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
    var onLine: ((_ n: Int, _ line: Result<String, SourceFailure>) -> Void)?

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    private let refs: NodeRefs
    /// The commands followed, by node, with the node's path for their environment and
    /// log lines.
    private var sources: [Int: (source: ValueSource, path: String)] = [:]
    /// One timer per interval, with the nodes it reads.
    private var pollers: [Duration: (timer: LoopTimer, nodes: [Int])] = [:]
    /// The runs asked for and not yet ended, by node.
    private var runs: [Int: Run] = [:]
    /// The nodes whose runs are ``Run/queued``, in the order asked, from `queueStart`.
    private var queue: [Int] = []
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

    init(processes: ProcessTable, missing: MissingPrograms, refs: NodeRefs, loop: EventLoop, logger: Logger) {
        self.refs = refs
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
        starter = EachTurn(loop: loop)
        starter.onRun = { [weak self] in self?.startNext() }
    }

    func follow(_ wanted: [Int: ValueSource], path: (Int) -> String) {
        var followed: [Int: (source: ValueSource, path: String)] = [:]
        for (n, source) in wanted {
            // The path of a node kept is the one it had: a renumbering keeps paths.
            followed[n] = (source, sources[n]?.path ?? path(n))
        }
        sources = followed
        followIntervals()
    }

    /// Runs the command of node `n` at the loop's next turn (after those asked for
    /// before), unless one waits for its turn already; if one is under way, once more
    /// after it, so that what it reads is no older than this call.
    @discardableResult
    func read(_ n: Int) -> Bool {
        guard sources[n]?.source.command != nil else { return false }
        switch runs[n] {
        case .queued: return true
        case .started:
            runs[n] = .started(again: true)
            return true
        case nil:
            runs[n] = .queued
            queue.append(n)
            starter.start()
            return false
        }
    }

    /// The sources, runs, queue and timers' nodes, after the model's nodes moved.
    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        sources = sources.renumbered(number)
        runs = runs.renumbered(number)
        queue = Array(queue[queueStart...]).renumbered(number)
        queueStart = 0
        for (interval, poller) in pollers {
            pollers[interval] = (poller.timer, poller.nodes.renumbered(number))
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
            let n = queue[queueStart]
            queueStart += 1
            guard let (source, path) = sources[n], let command = source.command else {
                runs[n] = nil
                continue
            }
            start(command, for: n, at: path)
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

    private func start(_ command: String, for n: Int, at path: String) {
        runs[n] = .started(again: false)
        let node = refs.ref(n)
        ValueCommandRun.start(command, path: path, processes: processes, missing: missing) {
            [weak self] line in
            // A node gone took its run with it.
            guard let self, let n = node.node else { return }
            var again = false
            if case .started(let asked) = runs.removeValue(forKey: n) { again = asked }
            // A line from a command the node no longer has is dropped; the read asked
            // for meanwhile (the new command's first) still runs.
            if sources[n]?.source.command == command { onLine?(n, line) }
            if again { read(n) }
        }
    }

    /// One repeating timer per distinct interval, reading all of its nodes.
    private func followIntervals() {
        var wanted: [Duration: [Int]] = [:]
        for (n, followed) in sources {
            if let interval = followed.source.interval { wanted[interval, default: []].append(n) }
        }
        for (interval, poller) in pollers where wanted[interval] == nil {
            poller.timer.close()
            pollers[interval] = nil
        }
        for (interval, nodes) in wanted {
            let sorted = nodes.sorted()
            if let poller = pollers[interval] {
                pollers[interval] = (poller.timer, sorted)
                continue
            }
            let timer = LoopTimer(loop: loop)
            timer.onFire = { [weak self] in
                guard let self else { return }
                var late = 0
                for n in pollers[interval]?.nodes ?? [] where read(n) { late += 1 }
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
