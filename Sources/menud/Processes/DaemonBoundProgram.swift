import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// A command that must not outlive the daemon (a `value-listen`, a `value-cmd`, a
/// `children-cmd`, an `on-change` hook), however the daemon ends: a SIGKILL or a
/// crash runs none of its code, so the kernel has to do it. The command runs under
/// `setpriv --pdeathsig TERM` (util-linux, which every Debian system has): its
/// supervisor, a shell, is sent SIGTERM when the daemon's thread that started it
/// dies, and traps it by SIGKILLing its whole process group (the command's session,
/// ``ChildProcess`` detaches it), grandchildren and a command that ignores SIGTERM
/// included. The daemon's own SIGTERM to the group ends it the same way.
///
/// The supervisor runs the command in the background and waits for it, since a
/// shell runs a trap only between commands: it exits with the command's status,
/// 128 + N for one killed by signal N, which ``exit(_:)`` reads back.
enum DaemonBoundProgram {
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 }

    static let script = #"trap 'kill -KILL 0' TERM; "$@" & wait $!"#

    /// `program` under the supervisor; as it is where setpriv is missing.
    static func wrapping(_ program: ChildProcess.Program) -> ChildProcess.Program {
        guard let setpriv else { return program }
        let words: [String]
        switch program {
        case .shell(let command): words = ["/bin/sh", "-c", command]
        case .arguments(let arguments): words = arguments
        }
        return .arguments([setpriv, "--pdeathsig", "TERM", "/bin/sh", "-c", script, "menud-command"] + words)
    }

    /// How the command ended, from how its supervisor did.
    static func exit(_ exit: ChildProcess.Exit) -> ChildProcess.Exit {
        guard setpriv != nil, case .exited(let status) = exit, status > 128, status < 128 + 65 else {
            return exit
        }
        return .killed(signal: status - 128)
    }
}
