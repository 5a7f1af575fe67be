import MenuClient
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A dmenu-style launcher run once: `/bin/sh -c COMMAND` with the choices on its
/// standard input, answering with its standard output. Plain posix_spawn, as menuctl
/// stays free of Foundation.
///
/// The launcher leads a process group of its own, which ends with pick
/// (``LauncherSignals``). When pick is the foreground process group of its terminal,
/// the launcher's group takes the foreground while it runs, so that a terminal
/// launcher (fzf) can read the terminal and Ctrl-C reaches it.
enum LauncherProcess {
    struct Answer {
        var status: Int32
        /// The first line it printed, without the newline; nil when it printed nothing.
        var line: String?
    }

    /// Runs `command` showing `input`'s lines, with `prompt` and the row to
    /// highlight (its 0-based index and its line) in the environment.
    static func run(_ command: String, input: String, prompt: String, row: Int, rowText: String)
        throws(ClientFailure) -> Answer
    {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw failure("pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }

        // Its own process group, every signal at its default (pick ignores SIGPIPE,
        // and SIGTTOU while it takes its terminal back) and none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in LauncherSignals.ending + [SIGPIPE, SIGTTOU] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // The launcher's command line can show the prompt as "$MENUCTL_PROMPT", and
        // highlight a row with "$MENUCTL_ROW" (rofi's -selected-row, bemenu's -I).
        setenv("MENUCTL_PROMPT", prompt, 1)
        setenv("MENUCTL_ROW", String(row), 1)
        setenv("MENUCTL_ROW_TEXT", rowText, 1)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }

        LauncherSignals.install()
        signal(SIGPIPE, SIG_IGN)
        let terminal = foregroundTerminal()
        defer { if terminal >= 0 { close(terminal) } }
        let spawned = LauncherSignals.blocked { () -> Int32? in
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ) == 0 else { return nil }
            LauncherSignals.running(group: pid)
            if terminal >= 0, tcsetpgrp(terminal, pid) == 0 {
                LauncherSignals.foreground(terminal: terminal)
                // It may have tried the terminal before it was its own, and stopped.
                kill(-pid, SIGCONT)
            }
            return pid
        }
        close(toChild[0])
        close(fromChild[1])
        guard let pid = spawned else {
            close(toChild[1])
            close(fromChild[0])
            throw failure("cannot start the launcher")
        }
        // Launchers read all their choices before they show anything, so writing
        // everything first cannot deadlock against their output.
        // A launcher that quits before reading everything is no error here: its
        // choice, or none, is read below.
        _ = WriteAll.write(toChild[1], input.utf8)
        close(toChild[1])
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fromChild[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += chunk[0..<n]
        }
        close(fromChild[0])
        // Waits for it to end without reaping it, so that its process group cannot
        // be another's yet when a signal's handler sends it SIGTERM.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        var status: Int32 = 0
        LauncherSignals.blocked {
            if terminal >= 0 {
                // From the background, tcsetpgrp would stop pick with SIGTTOU.
                let old = signal(SIGTTOU, SIG_IGN)
                tcsetpgrp(terminal, getpgrp())
                signal(SIGTTOU, old)
                LauncherSignals.foreground(terminal: -1)
            }
            LauncherSignals.running(group: 0)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let text = String(decoding: output, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init)
        return Answer(status: exitStatus, line: line.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// pick's controlling terminal, open, when pick is its foreground process group;
    /// else -1.
    private static func foregroundTerminal() -> Int32 {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        guard tcgetpgrp(fd) == getpgrp() else {
            close(fd)
            return -1
        }
        return fd
    }

    private static func failure(_ what: String) -> ClientFailure {
        ClientFailure(status: ExitStatus.daemonError, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
