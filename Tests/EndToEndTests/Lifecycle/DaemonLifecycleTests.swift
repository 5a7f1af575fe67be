import Foundation
import MenuClient
import MenuSystem
import TestSupport
import Testing

/// Starting, refusing, replacing and stopping: the socket file's life.
@Suite(.ownThread) struct DaemonLifecycleTests {
    @Test func socketIs0600InA0700Directory() async throws {
        try await withDaemon { daemon in
            let socket = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
            #expect((socket[.posixPermissions] as? Int) == 0o600)
            let directory = try FileManager.default.attributesOfItem(
                atPath: (daemon.socketPath as NSString).deletingLastPathComponent)
            #expect((directory[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test func refusesASecondDaemonOnTheSameSocket() async throws {
        try await withDaemon { daemon in
            let second = try run(
                TestPaths.menud, ["--config", TestPaths.fixture("menu.yaml"), "--socket", daemon.socketPath])
            #expect(second.status != 0)
            #expect(second.stderr.contains("already running"), "\(second)")
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// A daemon holds `SOCKET.lock` for its life: another one started while it is
    /// held, even with no socket there yet, says who has the path and starts nothing.
    @Test func theLockBesideTheSocketKeepsASecondDaemonOut() async throws {
        let directory = try TempDirectory()
        let path = try runDirectorySocket(in: directory)
        let holder = try BackgroundProcess(
            "/usr/bin/flock", [path + ".lock", "sh", "-c", "echo held; exec sleep 600"],
            environment: ProcessInfo.processInfo.environment, log: directory.file("holder.log"))
        defer { holder.killAndReap(group: true) }
        try await waitUntil("flock to hold the lock; its log: \(holder.log)") { holder.log.contains("held") }
        let refused = try run(
            TestPaths.menud, ["--config", TestPaths.fixture("menu.yaml"), "--no-state", "--socket", path])
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr == "menud: another menud is already running on \(path) (it holds \(path).lock)\n",
            "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Two daemons started at the same moment on a stale socket: one serves, the other
    /// says the path is taken; never both running, one of them unreachable.
    @Test func twoDaemonsStartedAtOnceOnAStaleSocket() async throws {
        let directory = try TempDirectory()
        let path = try runDirectorySocket(in: directory)
        for round in 0..<5 {
            try bindAndAbandon(path)
            let arguments = [
                "--config", TestPaths.fixture("menu.yaml"), "--no-state", "--no-watch", "--socket", path,
            ]
            let daemons = try (0..<2).map { n in
                try BackgroundProcess(
                    TestPaths.menud, arguments, environment: ProcessInfo.processInfo.environment,
                    log: directory.file("menud-\(round)-\(n).log"))
            }
            defer { for d in daemons { d.killAndReap(group: true) } }
            // The loser exits; the winner greets.
            try await waitUntil("one daemon to give up; logs: \(daemons.map(\.log))") {
                daemons.filter(\.isRunning).count == 1
            }
            let loser = try #require(daemons.first { !$0.isRunning })
            #expect(loser.exitStatus == 1 && loser.log.contains("already running on \(path)"), "\(loser.log)")
            let winner = try #require(daemons.first { $0.isRunning })
            #expect(try await Self.greeting(at: path, from: "the winner", log: winner.log) == "OK MENUD 1")
            kill(winner.pid, SIGTERM)
            try await waitUntil("the winner to stop; its log: \(winner.log)") { !winner.isRunning }
        }
    }

    /// The window the lock closes, held open: the first daemon's removal of the
    /// stale socket is slowed by two seconds (strace's fault injection), and a second
    /// daemon started meanwhile must not probe the same stale socket, remove it too
    /// and bind, to lose its socket file to the first one's late unlink.
    @Test(.enabled(if: XTools.isCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func aDaemonSlowToReplaceAStaleSocketKeepsTheSecondOut() async throws {
        let directory = try TempDirectory()
        let path = try runDirectorySocket(in: directory)
        try bindAndAbandon(path)
        let arguments = [
            "--config", TestPaths.fixture("menu.yaml"), "--no-state", "--no-watch", "--socket", path,
        ]
        let first = try BackgroundProcess(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-o", directory.file("strace.log"), "-e", "trace=unlink,unlinkat",
                "-e", "inject=unlink,unlinkat:delay_enter=2000000", TestPaths.menud,
            ] + arguments,
            environment: ProcessInfo.processInfo.environment, log: directory.file("first.log"))
        defer { first.killAndReap(group: true) }
        // Looked up in /proc/locks: taking the lock to see whether it is free would
        // make the daemon find it taken.
        try await waitUntil("the first daemon to hold the lock") { Self.isFlocked(path + ".lock") }
        let second = try run(TestPaths.menud, arguments)
        #expect(second.status == 1, "\(second)")
        #expect(
            second.stderr == "menud: another menud is already running on \(path) (it holds \(path).lock)\n",
            "\(second)")
        #expect(try await Self.greeting(at: path, from: "the first daemon", log: first.log) == "OK MENUD 1")
        let strace = (try? String(contentsOfFile: directory.file("strace.log"), encoding: .utf8)) ?? ""
        #expect(strace.contains("(DELAYED)"), "the unlink was not slowed: \(strace)")
    }

    /// The first line a daemon answering at `path` sends, once one answers there.
    static func greeting(at path: String, from daemon: String, log: String) async throws -> String? {
        var greeting: String?
        try await waitUntil("\(daemon) to greet; its log: \(log)") {
            let probe = try? UnixSocketConnection.connect(path: path)
            probe?.setReceiveTimeout(seconds: 20)
            greeting = try probe?.readLine()
            return greeting != nil
        }
        return greeting
    }

    /// Whether some process holds an flock on the file at `path`.
    static func isFlocked(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0,
            let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return false }
        // "1: FLOCK  ADVISORY  WRITE 1234 00:2f:5678 0 EOF": the file by its inode.
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 5 && fields[1] == "FLOCK"
                && fields[5].split(separator: ":").last == Substring(String(info.st_ino))
        }
    }

    @Test func replacesAStaleSocket() async throws {
        let directory = try TempDirectory()
        let path = try runDirectorySocket(in: directory)
        try bindAndAbandon(path)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(throws: UnixSocketConnection.Failure.self) { try UnixSocketConnection.connect(path: path) }

        let daemon = try TestDaemon(
            directory: directory, config: TestPaths.fixture("menu.yaml"), socketPath: path)
        do {
            try await daemon.start()
            #expect(try daemon.request("ping").isOK)
        } catch {
            Issue.record("\(error)")
        }
        await daemon.stop()
    }

    /// Deleting the socket file cuts a running daemon off from new clients (nothing in
    /// the kernel can reattach a path to a listening socket); those connected go on.
    /// menuctl says what happened instead of a bare ENOENT.
    @Test func aDeletedSocketFileIsExplainedByMenuctl() async throws {
        try await withDaemon { daemon in
            let connected = try daemon.connect()
            #expect(unlink(daemon.socketPath) == 0)
            try connected.send("get power\n")
            #expect(try connected.readReply().isOK)
            let result = try daemon.menuctl(["ping"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("socket file was deleted"), "\(result)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aStaleSocketIsExplainedByMenuctl() throws {
        let directory = try TempDirectory()
        let path = directory.file("socket")
        try bindAndAbandon(path)
        let result = try run(TestPaths.menuctl, ["--socket", path, "ping"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("nobody is listening"), "\(result)")
    }

    @Test func refusesToReplaceSomethingThatIsNotASocket() async throws {
        let directory = try TempDirectory()
        let path = directory.file("socket")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let result = try run(TestPaths.menud, ["--config", TestPaths.fixture("menu.yaml"), "--socket", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("not a socket"), "\(result)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test func sigtermRemovesTheSocket() async throws {
        let directory = try TempDirectory()
        let daemon = try TestDaemon(directory: directory, config: TestPaths.fixture("menu.yaml"))
        try await daemon.start()
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "menud \(daemon.process.ending); log: \(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    /// `swift run menud` on a machine without a config serves the built-in menu.
    @Test func servesTheBuiltinMenuWithoutAConfig() async throws {
        let directory = try TempDirectory()
        let daemon = try TestDaemon(
            directory: directory, config: nil, environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"])
        do {
            try await daemon.start()
            #expect(daemon.log.contains("serving the built-in menu"), "\(daemon.log)")
            #expect(try daemon.request("rows").lines.count > 0)
        } catch {
            Issue.record("\(error)")
        }
        await daemon.stop()
    }

    @Test func checkAcceptsAGoodConfig() throws {
        let result = try run(TestPaths.menud, ["--check", "--config", TestPaths.fixture("menu.yaml")])
        #expect(result.status == 0, "\(result)")
    }

    /// A value row that nothing reads or applies is a warning, at the row, and the
    /// config is still good; one with a source or an `on-change` is not.
    @Test func checkWarnsOfAValueThatNothingReadsOrApplies() throws {
        let directory = try TempDirectory()
        let file = directory.file("menu.yaml")
        try """
        menu:
          - id: s
            title: S
            children:
              - {id: idle, title: Idle, type: toggle}
              - {id: read, title: Read, type: toggle, value-cmd: echo on}
              - {id: applied, title: Applied, type: range, min: 0, max: 9, on-change: "true"}
              - {id: go, title: Go, exec: "true"}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try run(TestPaths.menud, ["--check", "--config", file])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(file): ok\n")
        #expect(
            result.stderr == "\(file):5:9: warning: 's/idle' holds a value that nothing reads or applies: "
                + "give it a value-cmd, a value-listen or an on-change\n", "\(result)")
    }

    @Test func checkReportsAnUnreadableConfig() throws {
        let result = try run(TestPaths.menud, ["--check", "--config", "/nonexistent/menu.yaml"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("/nonexistent/menu.yaml:1:1: "), "\(result)")
    }

    /// Every error, not just the first, so one edit fixes as much as possible.
    @Test
    func checkReportsEveryErrorOfABadConfig() throws {
        let bad = TestPaths.fixture("bad.yaml")
        let result = try run(TestPaths.menud, ["--check", "--config", bad])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count >= 2, "\(result)")
        for line in lines { #expect(line.hasPrefix("\(bad):"), "\(line)") }
    }

    @Test
    func startingWithABadConfigFails() throws {
        let directory = try TempDirectory()
        let result = try run(
            TestPaths.menud, ["--config", TestPaths.fixture("bad.yaml"), "--socket", directory.file("s")])
        #expect(result.status == 1)
        #expect(!directory.contains("s"))
    }

    /// A socket file nobody listens on: what a killed daemon leaves behind.
    /// `run/socket` in `directory`, with `run` made private as menud would make it.
    private func runDirectorySocket(in directory: TempDirectory) throws -> String {
        try FileManager.default.createDirectory(
            atPath: directory.file("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return directory.file("run/socket")
    }

    private func bindAndAbandon(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let rc = UnixSocketAddress.with(path) { bind(fd, $0, $1) }
        try #require(rc == 0, "bind \(path): errno \(errno)")
    }
}
