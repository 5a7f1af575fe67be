import Foundation
import Testing

/// A program a test starts in the background (Xvfb, rofi, polybar, `menuctl pick`),
/// stopped by ``stop()``. Spawned and waited for directly rather than through
/// Foundation's `Process`, for two reasons found under load:
///
/// - A child inherits the signal mask of the thread that spawns it, and the threads
///   tests run on block nearly every signal: a `Process` started there ignored
///   SIGTERM, so Xvfb was killed after the grace period and left its socket in /tmp.
///   Here the child starts with no signal blocked and every disposition at default.
/// - `Process` learns of an exit when a socket it hands the child closes, and a
///   grandchild inherits that socket: polybar's module script outlived polybar and
///   held its `Process` "running" forever, hanging the test. `waitpid` does not care.
final class BackgroundProcess {
    let name: String
    let pid: pid_t
    let logPath: String
    /// The `waitpid` status, once reaped.
    private var status: Int32?

    /// Both output streams go to `log`, unless `standardOutput` (the write end of a
    /// pipe) takes the first. The program leads a process group of its own, which
    /// ``stop()`` signals as a whole.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String], log: String,
        standardOutput: Int32? = nil
    ) throws {
        name = (executable as NSString).lastPathComponent
        logPath = log
        _ = FileManager.default.createFile(atPath: log, contents: nil)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_APPEND, 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        // Nothing else of the test process's leaks in: a pipe another test waits on
        // must not stay open because this program holds a copy. (A descriptor closed
        // meanwhile by another thread is no error: glibc ignores EBADF here.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw TimedOut(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status == nil
    }

    /// How it ended, for a failure message.
    var ending: String {
        guard let status else { return "is still running" }
        if status & 0x7f == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(status & 0x7f)"
    }

    /// Whether ``stop()`` had to SIGKILL it (or anything else did).
    var wasKilled: Bool {
        guard !isRunning, let status else { return false }
        return status & 0x7f == SIGKILL
    }

    /// The exit status, or nil while it runs or when a signal ended it.
    var exitStatus: Int32? {
        guard !isRunning, let status, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM to its process group, then SIGKILL if it does not go; waits for it
    /// either way. The programs started here run menuctl, whose sanitizer reports land
    /// in this log.
    func stop() async {
        defer { SanitizerReport.check(log, from: name) }
        guard isRunning else { return }
        kill(-pid, SIGTERM)
        // A bound for a loaded machine only: programs here exit at once on SIGTERM.
        try? await waitUntil("\(name) to exit", seconds: 15) { !isRunning }
        if isRunning {
            kill(-pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
        }
    }
}

extension BackgroundProcess {
    /// Waits until `condition` holds, failing at once when this program has exited.
    /// A failure tells `state` (what the program was given so far) and its log as
    /// they are then, not as they were when the wait began.
    func waitWhileRunning(
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
