import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct ChildProcessTests {
    /// Starts `program` and returns its result once it has exited.
    private func run(
        _ program: ChildProcess.Program, environment: [String: String] = [:], detached: Bool = true,
        standardOutput: ChildProcess.Output = .capture(limit: 1 << 20),
        standardError: ChildProcess.Output = .capture(limit: 1 << 20)
    ) throws -> (pid: Int32, result: ChildProcess.Result?) {
        var result: ChildProcess.Result?
        var pid: Int32 = 0
        try runLoop { loop in
            let child = try ChildProcess(
                loop: loop, program, environment: environment, detached: detached,
                standardOutput: standardOutput, standardError: standardError)
            pid = child.pid
            child.onExit = { result = $0 }
        }
        return (pid, result)
    }

    @Test func capturesOutputAndExitStatus() throws {
        let (_, result) = try run(
            .shell(#"printf '%s\n' "$MENU_PATH"; printf oops >&2; exit 3"#),
            environment: ["MENU_PATH": "a/b c"])
        #expect(result?.exit == .exited(3))
        #expect(
            result?.standardOutput == ChildProcess.Captured(bytes: Array("a/b c\n".utf8), truncated: false))
        #expect(result?.standardError == ChildProcess.Captured(bytes: Array("oops".utf8), truncated: false))
    }

    /// Past the limit the output is read and dropped: the child is not blocked on a
    /// full pipe and exits normally.
    @Test func outputPastTheLimitIsDroppedAndTheChildStillExits() throws {
        let (_, result) = try run(
            .shell("head -c 1048576 /dev/zero"), standardOutput: .capture(limit: 64 << 10))
        #expect(result?.exit == .exited(0))
        #expect(result?.standardOutput.bytes.count == 64 << 10)
        #expect(result?.standardOutput.truncated == true)
    }

    /// A tail capture keeps the end, where a failing command says why, and passing its
    /// limit is not reported as a failure.
    @Test func aTailCaptureKeepsTheLastBytes() throws {
        var truncatedReported = false
        var result: ChildProcess.Result?
        try runLoop { loop in
            let child = try ChildProcess(
                loop: loop, .shell("seq 1 20000 >&2; echo 'the last line' >&2; exit 2"),
                standardOutput: .discard, standardError: .captureTail(limit: 1000))
            child.onOutputTruncated = { truncatedReported = true }
            child.onExit = { result = $0 }
        }
        #expect(result?.exit == .exited(2))
        let text = String(decoding: result?.standardError.bytes ?? [], as: UTF8.self)
        #expect(result?.standardError.bytes.count == 1000)
        #expect(text.hasSuffix("20000\nthe last line\n"), "\(text)")
        #expect(result?.standardError.truncated == true)
        #expect(!truncatedReported)
    }

    @Test func aDetachedChildLeadsItsOwnSessionAndGroup() throws {
        let (pid, result) = try run(.shell("cat /proc/$$/stat"))
        let stat = try #require(
            result.flatMap { ProcessEntry(stat: String(decoding: $0.standardOutput.bytes, as: UTF8.self)) })
        #expect(stat.session == pid)
        #expect(stat.group == pid)
    }

    @Test func anAttachedChildStaysInTheDaemonsSession() throws {
        let (_, result) = try run(.shell("cat /proc/$$/stat"), detached: false)
        let stat = try #require(
            result.flatMap { ProcessEntry(stat: String(decoding: $0.standardOutput.bytes, as: UTF8.self)) })
        #expect(stat.session == getsid(0))
    }

    /// The child starts clean: input from /dev/null, no descriptor of the daemon's
    /// but its three, no signal blocked or ignored, even when the daemon blocks and
    /// ignores some; and an end by a signal is told as one.
    @Test func theChildStartsCleanAndItsEndIsTold() throws {
        var blocked = sigset_t()
        var before = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        let ignored = signal(SIGUSR2, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &before, nil)
            signal(SIGUSR2, ignored)
        }
        let (_, result) = try run(
            .shell(
                "readlink /proc/self/fd/0; ls /proc/self/fd | sort -n | tr '\\n' ' '; echo;"
                    + " grep -E '^Sig(Blk|Ign)' /proc/self/status"))
        let lines = String(decoding: result?.standardOutput.bytes ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "/dev/null")
        // 0, 1, 2, and the descriptor `ls` reads the directory with.
        #expect(lines.dropFirst().first?.split(separator: " ").count == 4, "\(lines)")
        // The signals a program may use: glibc keeps 32 and 33 for itself.
        func mask(_ name: String) -> UInt64? {
            lines.first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.split(separator: "\t").last ?? "", radix: 16)
            }
        }
        #expect(mask("SigBlk").map { $0 & 0x7FFF_FFFF } == 0, "\(lines)")
        #expect(mask("SigIgn").map { $0 & 0x7FFF_FFFF } == 0, "\(lines)")

        let (_, killed) = try run(.shell("kill -TERM $$"))
        #expect(killed?.exit == .killed(signal: SIGTERM))
    }

    @Test func aProgramThatCannotStartThrowsAndLeavesNoHandle() throws {
        var error: UVError?
        try runLoop { loop in
            #expect {
                _ = try ChildProcess(
                    loop: loop, .arguments(["/nonexistent/program"]), standardOutput: .capture(limit: 10))
            } throws: { thrown in
                error = thrown as? UVError
                return true
            }
        }
        #expect(error?.errno == ENOENT)
    }

    /// The shell starts a background `sleep` that holds its output open and then
    /// sleeps itself; neither ends by itself. Killing the group ends both: the output
    /// ends only when the last holder is gone, and the exit comes after it.
    @Test func killGroupEndsTheChildAndWhatItStarted() throws {
        try withTemporaryDirectory { directory in
            var result: ChildProcess.Result?
            var group: Int32 = 0
            defer { if group > 0 { kill(-group, SIGKILL) } }
            var leftInGroup: [Int32] = [-1]
            try runLoop { loop in
                // Watching before the child starts, so that its signal cannot be missed.
                let watch = try FileWatch(loop: loop, path: directory)
                let child = try ChildProcess(
                    loop: loop,
                    .shell("sleep 100 & touch \(directory)/started; sleep 100"),
                    standardOutput: .capture(limit: 1024))
                group = child.pid
                watch.onEvent = { event in
                    guard event.name == "started" else { return }
                    watch.close()
                    child.killGroup(SIGKILL)
                }
                child.onExit = { exit in
                    result = exit
                    // The kernel may still be tearing the group down: look again
                    // until it is gone.
                    let poll = LoopTimer(loop: loop)
                    poll.onFire = {
                        leftInGroup = livingProcesses(inGroup: group)
                        if leftInGroup.isEmpty { poll.close() }
                    }
                    poll.start(after: .zero, repeating: .milliseconds(5))
                }
            }
            #expect(result?.exit == .killed(signal: SIGKILL))
            #expect(leftInGroup == [])
        }
    }
}
