import Logging
import MenuCore
import MenuLoop

/// The `children-cmd` part: the loads under way, the refreshes of the groups that
/// refresh while open, and what the log was told of their failures. The service
/// decides which groups to load and splices what their commands print.
///
/// Groups are kept by node, renumbered when the model's nodes move
/// (``renumber(_:)``); a run holds a ``NodeRef`` to its group, which it outlives the
/// numbering of (a reload, another group's children arriving).
final class ChildrenLoader {
    /// How long a `children-cmd` may take.
    let timeout: Duration
    /// The timers and runs of the groups that refresh while open.
    let refresh: ChildrenRefresh
    /// The loads under way, by group, so that two requests opening one group share
    /// a run.
    var loads: [Int: Completion<Void>] = [:]
    /// The refreshing groups whose last refresh failed, with their log throttle.
    var refreshLogs = LogThrottles<Int>(interval: .seconds(60))
    /// The replies waiting for the loads.
    let heldReplies = HeldReplies()
    /// Where the loads and refreshes are told of.
    let logger: Logger
    private let processes: ProcessTable
    private let loop: EventLoop

    init(timeout: Duration, processes: ProcessTable, refs: NodeRefs, loop: EventLoop, logger: Logger) {
        self.timeout = timeout
        self.processes = processes
        self.loop = loop
        self.logger = logger
        refresh = ChildrenRefresh(refs: refs, loop: loop)
    }

    /// The loads, refreshes and failures, after the model's nodes moved.
    func renumber(_ number: Renumbering) {
        loads = loads.renumbered(number)
        refreshLogs.rekey { number($0) }
        refresh.renumber(number)
    }

    /// Runs `command`, the `children-cmd` of the group at `path`, within ``timeout``
    /// (``ChildrenCommandRun``); for a refresh, `unchangedFrom` is what it printed last.
    func run(_ command: String, path: String, unchangedFrom shown: [UInt8]? = nil) -> Completion<
        ChildrenCommandRun.Outcome
    > {
        ChildrenCommandRun.start(
            command, path: path, timeout: timeout, processes: processes, loop: loop, unchangedFrom: shown)
    }

    /// Closes the timers; the loads still awaited are dropped: they will never
    /// complete, and a connection holding its reply for one is held by it in turn.
    func close() {
        refresh.close()
        loads = [:]
    }
}
