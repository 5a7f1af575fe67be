import Foundation

/// Starts the programs the tests run (menud, menuctl, the bars and launchers, shell
/// commands) with `posix_spawn` and waits for them with `waitpid`, never through
/// Foundation's `Process`, for what was found under load:
///
/// - A child inherits the signal mask of the thread that spawns it, and the threads
///   tests run on block nearly every signal: a `Process` started there ignored
///   SIGTERM, so Xvfb was killed after the grace period and left its socket in /tmp.
///   Here the child starts with no signal blocked and every disposition at default.
/// - `Process` learns of an exit when a socket it hands the child closes, and a
///   grandchild inherits that socket: polybar's module script outlived polybar and
///   held its `Process` "running" forever, hanging the test. A daemon's detached
///   `exec` child did the same to a daemon's `Process`, whose `waitUntilExit` then
///   never returned. `waitpid` does not care.
/// - Nothing else of the test process's is inherited: a pipe another test waits on
///   must not stay open because a child holds a copy.
///
/// The program leads a process group of its own, so that what it leaves behind can
/// be signalled with it.
public enum ProgramSpawn {
    /// Starts `executable` (looked up in `PATH` when it has no slash) with exactly
    /// `environment`, in `directory` when given, with the given descriptors as its
    /// standard input, output and error (standard input is /dev/null when nil).
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: Int32? = nil, output: Int32, error: Int32, processGroup: pid_t = 0
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        // A descriptor closed meanwhile by another thread is no error: glibc ignores
        // EBADF here.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        if let directory {
            guard let addChdir = Self.addChdir else {
                throw TimedOut(description: "this libc cannot spawn in a directory")
            }
            let rc = addChdir(&actions, directory)
            guard rc == 0 else { throw TimedOut(description: "cannot spawn in \(directory): \(rc)") }
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
        posix_spawnattr_setpgroup(&attributes, processGroup)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let rc =
            executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw TimedOut(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29), which Swift's Glibc
    /// module does not declare.
    private static let addChdir:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? =
            {
                guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (
                        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
                    ) -> Int32)
                    .self)
            }()

    /// A pipe whose ends close on exec (a spawned program gets the end it is given as
    /// one of its standard streams, and nothing else): its read end, then its write
    /// end. Swift's Glibc module does not declare `pipe2`.
    public static func pipe(nonblockingRead: Bool = false) throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw TimedOut(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        if nonblockingRead { _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    /// The exit status in a `waitpid` status; nil when a signal ended the program.
    public static func exitCode(_ status: Int32) -> Int32? { status & 0x7f == 0 ? (status >> 8) & 0xff : nil }

    /// The signal that ended the program; nil when it exited.
    public static func signal(_ status: Int32) -> Int32? { status & 0x7f == 0 ? nil : status & 0x7f }

    /// How a `waitpid` status ended the program, for a failure message.
    public static func describe(_ status: Int32) -> String {
        exitCode(status).map { "exited with status \($0)" } ?? "was killed by signal \(status & 0x7f)"
    }

    /// `pid`'s status if it has ended, reaping it; nil while it runs.
    public static func reaped(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        return waitpid(pid, &raw, WNOHANG) == pid ? raw : nil
    }

    /// Reaps `pid`, blocking: for a process that has exited or been sent SIGKILL.
    public static func reap(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return raw
    }
}
