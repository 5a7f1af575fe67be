import Glibc

/// Runs a program and reports its wall time and peak resident memory, which only
/// `wait4`'s rusage gives for a child; Foundation's Process hides it.
struct ChildProcess {
    struct Outcome {
        var status: Int32
        var nanos: Double
        /// Peak resident set size, in bytes.
        var peakRSS: Int
    }

    /// Runs `argv`, its output going to `output` (a file it creates) or nowhere, its
    /// input read from the file `input`, if given.
    static func run(_ argv: [String], quiet: Bool = true, output: String? = nil, input: String? = nil)
        -> Outcome
    {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        if quiet {
            if output == nil { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        let clock = ContinuousClock()
        let start = clock.now
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard rc == 0 else { return Outcome(status: -1, nanos: 0, peakRSS: 0) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let nanos = Stopwatch.nanos(clock.now - start)
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: exit, nanos: nanos, peakRSS: usage.ru_maxrss * 1024)
    }

    /// Starts a server in the background, its output discarded.
    static func start(_ argv: [String]) -> pid_t? {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        return posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ) == 0 ? pid : nil
    }

    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// The median of `times` runs.
    static func median(_ argv: [String], times: Int) -> Outcome {
        median(of: (0..<times).map { _ in run(argv) })
    }

    /// The medians of `times` runs of each, run in turn (a, b, a, b, …), so that a
    /// burst of load from elsewhere on the machine falls on both rather than on
    /// whichever happened to be running: their ratio is what the benchmark reports.
    static func alternatingMedians(_ a: [String], _ b: [String], times: Int) -> (Outcome, Outcome) {
        var runsA: [Outcome] = []
        var runsB: [Outcome] = []
        for _ in 0..<times {
            runsA.append(run(a))
            runsB.append(run(b))
        }
        return (median(of: runsA), median(of: runsB))
    }

    /// Runs `argv` and returns what it printed, read from a pipe until it ends, as
    /// menud reads a `children-cmd`'s output.
    static func output(of argv: [String]) -> [UInt8] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return [] }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard rc == 0 else { return [] }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n > 0 {
                out += buffer[0..<n]
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return out
    }

    private static func median(of runs: [Outcome]) -> Outcome {
        runs.sorted { $0.nanos < $1.nanos }[runs.count / 2]
    }
}
