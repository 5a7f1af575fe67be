import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Starting the commands of a menu (`exec`, `on-change`, `children-cmd`) on the loop.
/// Each runs with `/bin/sh -c` in a session of its own (``ChildProcess`` detaches it):
/// it outlives the daemon (unless it `endsWithDaemon`), never receives the daemon's
/// terminal signals, and a timeout can kill whatever it started with it. It gets
/// default signal dispositions (the daemon ignores SIGPIPE, which a child must not
/// inherit), `/dev/null` for the streams not captured and none of the daemon's
/// descriptors. The loop reaps it.
extension DaemonState {
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
        let process: ChildProcess
        do {
            process = try ChildProcess(
                loop: loop, .shell(command), environment: environment, standardOutput: standardOutput,
                standardError: standardError)
        } catch {
            throw ProtocolError(
                .activationFailed, "cannot start /bin/sh: \(String(cString: strerror(error.errno)))")
        }
        let pid = process.pid
        var deadline: LoopTimer?
        if let timeout {
            let timer = LoopTimer(loop: loop)
            timer.onFire = { expired?(process) }
            timer.start(after: timeout)
            deadline = timer
        }
        processes[pid] = (process, deadline, endsWithDaemon)
        process.onExit = { [weak self] result in
            self?.processes.removeValue(forKey: pid)?.deadline?.close()
            ended(result)
        }
        return process
    }
}
