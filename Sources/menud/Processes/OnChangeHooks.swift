import Logging
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
    /// The hooks whose last run failed, by path, with their log throttle.
    private var failing = LogThrottles<String>(interval: OnChangeHooks.failureLogInterval)
    /// How many runs of each hook, by path, have started and not ended.
    private var running: [String: Int] = [:]
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
    func run(_ command: String, path: String, value: String, ended: (() -> Void)? = nil) {
        let timeout = timeout
        // A slider fires many runs: a start is logged only when no run of the hook is
        // under way and it has not been failing, however fast the runs end.
        let quiet = failing.isFailing(path) || running[path, default: 0] > 0
        running[path, default: 0] += 1
        do throws(ProtocolError) {
            let process = try processes.launch(
                command, environment: ["MENU_VALUE": value, "MENU_PATH": path], timeout: timeout,
                expired: { [logger] process in
                    logger.warning(
                        "on-change \(path): '\(command)' still running after \(timeout.seconds) s; killed it")
                    process.killGroup(SIGKILL)
                },
                ended: { [weak self] result in
                    self?.runEnded(path)
                    self?.logOnChangeEnded(path: path, command: command, result.exit)
                    ended?()
                })
            if !quiet { logger.info("on-change \(path): started pid \(process.pid)") }
        } catch {
            runEnded(path)
            logger.error("on-change \(path): \(error.message)")
            ended?()
        }
    }

    private func runEnded(_ path: String) {
        let left = running[path, default: 1] - 1
        running[path] = left > 0 ? left : nil
    }

    /// The first failure of a hook is logged, then at most one line per
    /// ``failureLogInterval`` with how many failures it held back, until it works again.
    /// A hook whose program is missing is not: that program is logged once, by name.
    private func logOnChangeEnded(path: String, command: String, _ exit: ChildProcess.Exit) {
        guard !exit.succeeded else {
            if failing.recovered(path) {
                logger.notice("on-change \(path): '\(command)' works again")
            }
            return
        }
        if missing.found(exitOf: command, exit, user: "on-change \(path)") != nil { return }
        guard let more = failing.admit(path) else { return }
        logger.warning("on-change \(path): '\(command)' \(exit)\(more)")
    }
}
