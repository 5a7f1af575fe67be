import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `on-change`: a value node's command, run after its value changed. Owns what it
/// remembers of the hooks: which ones failed last, for the log.
final class OnChangeHooks {
    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let logger: Logger
    /// How long a hook may run before it is killed.
    let timeout: Duration
    /// The hooks whose last run failed, by node, with their log throttle.
    private var failing = LogThrottles<Int>(interval: OnChangeHooks.failureLogInterval)
    /// How many runs of each hook, by node, have started and not ended.
    private var running: [Int: Int] = [:]
    /// How often a hook that keeps failing is logged.
    static let failureLogInterval = Duration.seconds(60)

    init(processes: ProcessTable, missing: MissingPrograms, timeout: Duration, logger: Logger) {
        self.processes = processes
        self.missing = missing
        self.timeout = timeout
        self.logger = logger
    }

    /// Starts `command`, node `n`'s `on-change` command, detached like an item's
    /// `exec`. The value and path go in the environment (`MENU_VALUE`, `MENU_PATH`),
    /// never into the command's text, so a value is never run as shell code. A
    /// command that cannot start or exits non-zero is logged; nothing waits for it.
    ///
    /// A hook is meant to apply a value and finish, and a slider can fire many of
    /// them; one that is still running after ``timeout`` is killed with its
    /// whole process group (it leads its own session) and logged, so hung hooks cannot
    /// pile up.
    ///
    /// `ended` is called once the hook has ended, or failed to start.
    /// `node` is the hook's node, kept current while it runs.
    func run(_ command: String, node: NodeRef, path: String, value: String, ended: (() -> Void)? = nil) {
        let timeout = timeout
        // A slider fires many runs: a start is logged only when no run of the hook is
        // under way and it has not been failing, however fast the runs end.
        var quiet = false
        if let n = node.node {
            quiet = failing.isFailing(n) || running[n, default: 0] > 0
            running[n, default: 0] += 1
        }
        do throws(ProtocolError) {
            let process = try processes.launch(
                command, environment: ["MENU_VALUE": value, "MENU_PATH": path], timeout: timeout,
                expired: { [logger] process in
                    logger.warning(
                        "on-change \(path): '\(command)' still running after \(timeout.seconds) s; killed it")
                    process.killGroup(SIGKILL)
                },
                ended: { [weak self] result in
                    self?.runEnded(node)
                    self?.logOnChangeEnded(node, path: path, command: command, result.exit)
                    ended?()
                })
            if !quiet { logger.info("on-change \(path): started pid \(process.pid)") }
        } catch {
            runEnded(node)
            logger.error("on-change \(path): \(error.message)")
            ended?()
        }
    }

    private func runEnded(_ node: NodeRef) {
        guard let n = node.node else { return }
        let left = running[n, default: 1] - 1
        running[n] = left > 0 ? left : nil
    }

    /// The runs and failures, after the model's nodes moved.
    func renumber(_ number: Renumbering) {
        running = running.renumbered(number)
        failing.rekey { number($0) }
    }

    /// The first failure of a hook is logged, then at most one line per
    /// ``failureLogInterval`` with how many failures it held back, until it works again.
    /// A hook whose program is missing is not: that program is logged once, by name.
    private func logOnChangeEnded(_ node: NodeRef, path: String, command: String, _ exit: ChildProcess.Exit) {
        guard !exit.succeeded else {
            if let n = node.node, failing.recovered(n) {
                logger.notice("on-change \(path): '\(command)' works again")
            }
            return
        }
        if missing.found(exitOf: command, exit, user: "on-change \(path)") != nil { return }
        // A node gone has no throttle left: its failure is told as a first one.
        guard let more = node.node.map({ failing.admit($0) }) ?? "" else { return }
        logger.warning("on-change \(path): '\(command)' \(exit)\(more)")
    }
}
