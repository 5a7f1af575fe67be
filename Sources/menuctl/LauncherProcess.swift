import MenuClient

#if canImport(Glibc)
    import Glibc
#endif

/// A dmenu-style launcher run once: `/bin/sh -c COMMAND` with the choices on its
/// standard input, answering with its standard output. Plain posix_spawn, as menuctl
/// stays free of Foundation.
enum LauncherProcess {
    struct Answer {
        var status: Int32
        /// The first line it printed, without the newline; nil when it printed nothing.
        var line: String?
    }

    static func run(_ command: String, input: String, prompt: String) throws(ClientFailure) -> Answer {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw failure("pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }

        // The launcher's command line can show the prompt as "$MENUCTL_PROMPT".
        setenv("MENUCTL_PROMPT", prompt, 1)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard rc == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw failure("cannot start the launcher")
        }
        // Launchers read all their choices before they show anything, so writing
        // everything first cannot deadlock against their output.
        signal(SIGPIPE, SIG_IGN)
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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let text = String(decoding: output, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init)
        return Answer(status: exitStatus, line: line.flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func failure(_ what: String) -> ClientFailure {
        ClientFailure(status: ExitStatus.daemonError, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
