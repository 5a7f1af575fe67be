import Logging
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Starting the commands of a menu (`exec`, `on-change`, `children-cmd`) on the loop.
/// Each runs with `/bin/sh -c` in a session of its own (``ChildProcess`` detaches it):
/// it outlives the daemon (unless it `endsWithDaemon`, which ``DaemonBoundProgram``
/// makes sure of even when the daemon is killed), never receives the daemon's
/// terminal signals, and a timeout can kill whatever it started with it. It gets
/// default signal dispositions (the daemon ignores SIGPIPE, which a child must not
/// inherit), `/dev/null` for the streams not captured and none of the daemon's
/// descriptors. The loop reaps it.
///
/// The table owns the processes started and not yet ended, so that the daemon's
/// stop can close their watches (``close()``).
final class ProcessTable {
    private let loop: EventLoop
    /// The processes started and not yet ended, by pid, with their timeouts: closed
    /// at shutdown, so that the loop can end without waiting for them. Those that end
    /// with the daemon are signalled then too.
    private var running: [Int32: (process: ChildProcess, deadline: LoopTimer?, endsWithDaemon: Bool)] = [:]

    init(loop: EventLoop) { self.loop = loop }

    /// Starts `command`, with `environment` added to the daemon's: values reach a
    /// command this way, never pasted into its text, so no value can be run as shell
    /// code. With a `timeout`, `expired` is called if it is still running then.
    /// `ended` comes once it has exited (and its captured output ended). One that
    /// `endsWithDaemon` is signalled with its group when the daemon stops (``close()``).
    @discardableResult
    func launch(
        _ command: String, environment: [String: String] = [:],
        standardOutput: ChildProcess.Output = .discard, standardError: ChildProcess.Output = .discard,
        timeout: Duration? = nil, expired: ((ChildProcess) -> Void)? = nil, endsWithDaemon: Bool = false,
        ended: @escaping (ChildProcess.Result) -> Void
    ) throws(ProtocolError) -> ChildProcess {
        try launch(
            program: .shell(command), environment: environment, standardOutput: standardOutput,
            standardError: standardError, timeout: timeout, expired: expired, endsWithDaemon: endsWithDaemon,
            ended: ended)
    }

    /// Starts `program`, as ``launch(_:environment:standardOutput:standardError:timeout:expired:endsWithDaemon:ended:)``
    /// starts a command: `.arguments` runs a program with its arguments as they are,
    /// and no shell reads them (an application of the applications menu).
    @discardableResult
    func launch(
        program: ChildProcess.Program, environment: [String: String] = [:],
        standardOutput: ChildProcess.Output = .discard, standardError: ChildProcess.Output = .discard,
        timeout: Duration? = nil, expired: ((ChildProcess) -> Void)? = nil, endsWithDaemon: Bool = false,
        ended: @escaping (ChildProcess.Result) -> Void
    ) throws(ProtocolError) -> ChildProcess {
        let process: ChildProcess
        do {
            process = try ChildProcess(
                loop: loop, endsWithDaemon ? DaemonBoundProgram.wrapping(program) : program,
                environment: environment, standardOutput: standardOutput, standardError: standardError)
        } catch {
            let name: String
            switch program {
            case .shell: name = "/bin/sh"
            case .arguments(let arguments): name = arguments.first ?? "nothing"
            }
            throw ProtocolError(
                .activationFailed, "cannot start \(name): \(String(cString: strerror(error.errno)))")
        }
        let pid = process.pid
        var deadline: LoopTimer?
        if let timeout {
            let timer = LoopTimer(loop: loop)
            timer.onFire = { expired?(process) }
            timer.start(after: timeout)
            deadline = timer
        }
        running[pid] = (process, deadline, endsWithDaemon)
        process.onExit = { [weak self] result in
            self?.running.removeValue(forKey: pid)?.deadline?.close()
            var result = result
            if endsWithDaemon { result.exit = DaemonBoundProgram.exit(result.exit) }
            ended(result)
        }
        return process
    }

    /// Starts the program of the item at `path` that an `activate` runs (`shown` is
    /// how the log shows it), and returns its pid. Not timed: an item usually starts
    /// a program meant to keep running. Its start is logged, and so is an exit that
    /// is no success.
    func startItem(_ program: ChildProcess.Program, shown: String, at path: String, logger: Logger)
        throws(ProtocolError) -> Int32
    {
        let process = try launch(program: program) { result in
            if !result.exit.succeeded { logger.warning("activate \(path): '\(shown)' \(result.exit)") }
        }
        logger.info("activate \(path): started pid \(process.pid): \(shown)")
        return process.pid
    }

    /// Closes the watches of the processes still running, for the end of a graceful
    /// stop. Most of those go on, unwatched: an application started by `exec`, or an
    /// `on-change` command still applying a value. Those that end with the daemon
    /// (`children-cmd`) are sent SIGTERM with their process groups: nothing will read
    /// their output, and nothing would end them after their timeout.
    func close() {
        for (process, deadline, endsWithDaemon) in running.values {
            deadline?.close()
            if endsWithDaemon { process.killGroup(SIGTERM) }
            process.close()
        }
        running = [:]
    }
}
