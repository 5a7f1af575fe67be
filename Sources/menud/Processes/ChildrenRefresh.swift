import MenuLoop

/// The refresh part: a repeating timer for each `children-cmd` group with `refresh`
/// that is open and shown, and the refresh runs under way. The service decides which
/// groups those are (``MenuService/followRefreshes()``) and runs the commands; this
/// keeps the timers and makes sure that a group never has two refreshes at once.
///
/// Groups are named by path: a run outlives the numbering of the model that started
/// it (a reload, another group's children arriving).
final class ChildrenRefresh {
    /// A group's timer fired: its command is due to run again.
    var onTick: ((_ path: String) -> Void)?

    private let loop: EventLoop
    private var timers: [String: (every: Duration, timer: LoopTimer)] = [:]
    /// The refresh under way of each group, by its number, and whether its output
    /// still counts: it stops counting when the group closes.
    private var running: [String: (run: UInt64, counts: Bool)] = [:]
    private var runs: UInt64 = 0

    init(loop: EventLoop) { self.loop = loop }

    /// Whether no group refreshes: most menus have none, and every commit asks.
    var isIdle: Bool { timers.isEmpty }

    /// Keeps a timer for each group of `wanted`: each fires first after `first` and
    /// then every `every`. A group whose interval is unchanged keeps its timer; one
    /// whose interval changed gets a new one, and groups not wanted lose theirs.
    func follow(_ wanted: [String: (every: Duration, first: Duration)]) {
        for (path, kept) in timers where wanted[path]?.every != kept.every {
            kept.timer.close()
            timers[path] = nil
        }
        for (path, want) in wanted where timers[path] == nil {
            let timer = LoopTimer(loop: loop)
            timer.onFire = { [weak self] in self?.onTick?(path) }
            timer.start(after: want.first, repeating: want.every)
            timers[path] = (want.every, timer)
        }
    }

    /// Whether a refresh of `path` runs: the next is not started until it ends.
    func isRunning(_ path: String) -> Bool { running[path] != nil }

    /// A refresh of `path` starts; returns its number, for ``end(_:_:)``.
    func start(_ path: String) -> UInt64 {
        runs &+= 1
        running[path] = (runs, true)
        return runs
    }

    /// Refresh `run` of `path` ended; returns whether its output counts: the group
    /// was not closed since it started.
    func end(_ path: String, _ run: UInt64) -> Bool {
        guard let current = running[path], current.run == run else { return false }
        running[path] = nil
        return current.counts
    }

    /// The group at `path` closed: what its refresh under way prints is dropped.
    /// The run is still under way until it ends, so that no refresh of the group,
    /// opened again, starts beside it.
    func forget(_ path: String) {
        running[path]?.counts = false
    }

    /// Stops every timer, for the daemon's stop. The runs under way end with the
    /// daemon (``ProcessTable/close()``), and their output is not read.
    func close() {
        for kept in timers.values { kept.timer.close() }
        timers = [:]
        running = [:]
    }
}
