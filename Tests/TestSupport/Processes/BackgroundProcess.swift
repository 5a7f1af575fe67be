import Foundation
import Testing

/// A program a test starts in the background (menud, Xvfb, rofi, polybar, `menuctl
/// pick`), stopped by ``stop()``; spawned as ``ProgramSpawn`` says.
public final class BackgroundProcess {
    public let name: String
    public let pid: pid_t
    public let logPath: String
    /// The `waitpid` status, once reaped.
    private var status: Int32?

    /// Both output streams go to `log`, unless `standardOutput` (the write end of a
    /// pipe) takes the first. The program leads a process group of its own, which
    /// ``stop()`` signals as a whole. It runs in `directory` when given.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String], log: String,
        standardOutput: Int32? = nil, directory: String? = nil
    ) throws {
        name = (executable as NSString).lastPathComponent
        logPath = log
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard logFD >= 0 else {
            throw TimedOut(description: "cannot open \(log): \(String(cString: strerror(errno)))")
        }
        defer { close(logFD) }
        pid = try ProgramSpawn.start(
            executable, arguments, environment: environment, directory: directory,
            output: standardOutput ?? logFD, error: logFD)
    }

    public var isRunning: Bool {
        if status == nil { status = ProgramSpawn.reaped(pid) }
        return status == nil
    }

    /// How it ended, for a failure message.
    public var ending: String {
        guard let status else { return "is still running" }
        return ProgramSpawn.describe(status)
    }

    /// Whether ``stop()`` had to SIGKILL it (or anything else did).
    public var wasKilled: Bool {
        guard !isRunning, let status else { return false }
        return ProgramSpawn.signal(status) == SIGKILL
    }

    /// The exit status, or nil while it runs or when a signal ended it.
    public var exitStatus: Int32? {
        guard !isRunning, let status else { return nil }
        return ProgramSpawn.exitCode(status)
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM to its process group, then SIGKILL if it does not go; waits for it
    /// either way. The programs started here run menuctl, whose sanitizer reports land
    /// in this log.
    public func stop() async {
        defer { SanitizerReport.check(log, from: name) }
        guard isRunning else { return }
        kill(-pid, SIGTERM)
        // A bound for a loaded machine only: programs here exit at once on SIGTERM.
        try? await waitUntil("\(name) to exit", seconds: 15) { !isRunning }
        if isRunning { killAndReap(group: true) }
    }

    /// SIGKILL, to its process group with `group`, and waits for it.
    public func killAndReap(group: Bool) {
        guard isRunning else { return }
        kill(group ? -pid : pid, SIGKILL)
        status = ProgramSpawn.reap(pid)
    }
}

extension BackgroundProcess {
    /// Waits until `condition` holds, failing at once when this program has exited.
    /// A failure tells `state` (what the program was given so far) and its log as
    /// they are then, not as they were when the wait began.
    public func waitWhileRunning(
        _ what: String, state: @autoclosure () -> String = "", _ condition: () throws -> Bool
    ) async throws {
        do {
            try await waitUntil(what) {
                guard isRunning else { throw TimedOut(description: "\(name) \(ending)") }
                return try condition()
            }
        } catch let error as TimedOut {
            throw TimedOut(description: "\(error); \(state()); \(name)'s log: \(log)")
        }
    }
}
