import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Starts an item's `exec` for `activate`. Uses `posix_spawn` (vfork-like, so it never
/// blocks the event loop for long) instead of `fork`, which is unsafe in a
/// multi-threaded process. The child gets its own session (`POSIX_SPAWN_SETSID`) so it
/// outlives the daemon and never receives the daemon's terminal signals, default
/// signal dispositions (the daemon ignores SIGPIPE, which a child must not inherit)
/// and an empty signal mask, and `/dev/null` for its standard streams so that it
/// holds nothing of the daemon's open (NIO opens every socket close-on-exec). Exited children are reaped by ``ChildReaper``.
struct CommandLauncher: Sendable {
    var shell = "/bin/sh"

    /// glibc's `POSIX_SPAWN_SETSID` (spawn.h), hidden from Swift behind `_GNU_SOURCE`.
    private static let setsid: Int32 = 0x80

    struct LaunchError: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { "cannot start /bin/sh: \(String(cString: strerror(errno)))" }
    }

    /// Starts `/bin/sh -c command` and returns its pid. `environment` is added to the
    /// daemon's: values reach a command this way, never pasted into its text, so no
    /// value can be run as shell code. With `stdout`, the child writes there instead
    /// of to `/dev/null`.
    func launch(_ command: String, environment: [String: String] = [:], stdout: Int32? = nil)
        throws(ProtocolError) -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        let flags = Self.setsid | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup(command), nil]
        defer { for p in argv { free(p) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        var e = environ
        while let entry = e.pointee {
            let name = String(cString: entry).prefix { $0 != "=" }
            if environment[String(name)] == nil { envp.append(strdup(entry)) }
            e += 1
        }
        for (name, value) in environment { envp.append(strdup("\(name)=\(value)")) }
        envp.append(nil)
        defer { for p in envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, shell, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw ProtocolError(.activationFailed, LaunchError(errno: rc).description)
        }
        return pid
    }
}
