import Logging
import MenuLoop

/// The `children-cmd` part: the loads under way, the refreshes of the groups that
/// refresh while open, and what the log was told of their failures. The service
/// decides which groups to load and splices what their commands print.
///
/// Groups are named by path: a run outlives the numbering of the model that started
/// it (a reload, another group's children arriving).
final class ChildrenLoader {
    /// How long a `children-cmd` may take.
    let timeout: Duration
    /// The timers and runs of the groups that refresh while open.
    let refresh: ChildrenRefresh
    /// The loads under way, by group, so that two requests opening one group share
    /// a run.
    var loads: [String: Completion<Void>] = [:]
    /// The refreshing groups whose last refresh failed, with their log throttle.
    var refreshLogs = LogThrottles<String>(interval: .seconds(60))
    /// The replies waiting for the loads.
    let heldReplies = HeldReplies()
    /// Where the loads and refreshes are told of.
    let logger: Logger
    private let processes: ProcessTable
    private let loop: EventLoop

    init(timeout: Duration, processes: ProcessTable, loop: EventLoop, logger: Logger) {
        self.timeout = timeout
        self.processes = processes
        self.loop = loop
        self.logger = logger
        refresh = ChildrenRefresh(loop: loop)
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
