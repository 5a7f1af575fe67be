import MenuCore
import MenuLoop

/// The refresh part: a repeating timer for each `children-cmd` group with `refresh`
/// that is open and shown, and the refresh runs under way. The service decides which
/// groups those are (``MenuService/followRefreshes()``) and runs the commands; this
/// keeps the timers and makes sure that a group never has two refreshes at once.
///
/// Groups are kept by node, renumbered with the model's (``renumber(_:)``); a timer
/// holds a ``NodeRef`` to its group.
final class ChildrenRefresh {
    /// Group `g`'s timer fired: its command is due to run again.
    var onTick: ((_ g: Int) -> Void)?

    private let loop: EventLoop
    private let refs: NodeRefs
    private var timers: [Int: (every: Duration, timer: LoopTimer)] = [:]
    /// The refresh under way of each group, by its number, and whether its output
    /// still counts: it stops counting when the group closes.
    private var running: [Int: (run: UInt64, counts: Bool)] = [:]
    private var runs: UInt64 = 0

    init(refs: NodeRefs, loop: EventLoop) {
        self.refs = refs
        self.loop = loop
    }

    /// Whether no group refreshes: most menus have none, and every commit asks.
    var isIdle: Bool { timers.isEmpty }

    /// Keeps a timer for each group of `wanted`: each fires first after `first` and
    /// then every `every`. A group whose interval is unchanged keeps its timer; one
    /// whose interval changed gets a new one, and groups not wanted lose theirs.
    func follow(_ wanted: [Int: (every: Duration, first: Duration)]) {
        for (g, kept) in timers where wanted[g]?.every != kept.every {
            kept.timer.close()
            timers[g] = nil
        }
        for (g, want) in wanted where timers[g] == nil {
            let timer = LoopTimer(loop: loop)
            let group = refs.ref(g)
            timer.onFire = { [weak self] in
                if let g = group.node { self?.onTick?(g) }
            }
            timer.start(after: want.first, repeating: want.every)
            timers[g] = (want.every, timer)
        }
    }

    /// Whether a refresh of group `g` runs: the next is not started until it ends.
    func isRunning(_ g: Int) -> Bool { running[g] != nil }

    /// A refresh of group `g` starts; returns its number, for ``end(_:_:)``.
    func start(_ g: Int) -> UInt64 {
        runs &+= 1
        running[g] = (runs, true)
        return runs
    }

    /// Refresh `run` of group `g` ended; returns whether its output counts: the
    /// group was not closed since it started.
    func end(_ g: Int, _ run: UInt64) -> Bool {
        guard let current = running[g], current.run == run else { return false }
        running[g] = nil
        return current.counts
    }

    /// Group `g` closed: what its refresh under way prints is dropped. The run is
    /// still under way until it ends, so that no refresh of the group, opened again,
    /// starts beside it.
    func forget(_ g: Int) {
        running[g]?.counts = false
    }

    /// The timers and runs, after the model's nodes moved; a group gone loses its
    /// timer.
    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        for (g, kept) in timers where number(g) == nil { kept.timer.close() }
        timers = timers.renumbered(number)
        running = running.renumbered(number)
    }

    /// Stops every timer, for the daemon's stop. The runs under way end with the
    /// daemon (``ProcessTable/close()``), and their output is not read.
    func close() {
        for kept in timers.values { kept.timer.close() }
        timers = [:]
        running = [:]
    }
}
