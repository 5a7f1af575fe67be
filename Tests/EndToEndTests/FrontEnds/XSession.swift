import Foundation
import TestSupport
import Testing

/// Programs the X tests need. Where they are missing the tests are skipped, except on
/// CI (`CI=true`), where `.ci/run` installs them: there a missing program fails.
enum XTools {
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static func path(of program: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func missing(_ programs: [String]) -> [String] { programs.filter { path(of: $0) == nil } }

    /// For `.enabled(if:)`: run when installed, and always on CI.
    static func shouldRun(_ programs: [String]) -> Bool { isCI || missing(programs).isEmpty }

    /// Fails the test when a program is missing (only reached on CI, see ``shouldRun(_:)``).
    static func require(_ programs: [String]) throws {
        let missing = missing(programs)
        if !missing.isEmpty {
            throw TimedOut(
                description: "CI=true but not installed: \(missing.joined(separator: ", ")); see .ci/run")
        }
    }
}

/// An Xvfb server on a display of its own, and the programs a test starts on it. Use
/// it through ``withXSession(_:)``, which stops them all however the test ends.
final class XSession {
    let directory: TempDirectory
    let display: String
    private var processes: [BackgroundProcess] = []

    private init(directory: TempDirectory, display: String) {
        self.directory = directory
        self.display = display
    }

    /// The environment for programs on this display, talking to `daemon`.
    func environment(_ daemon: TestDaemon) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["MENUD_SOCKET"] = daemon.socketPath
        environment["PATH"] = TestPaths.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// Starts `program` (found on PATH) on this display; it is stopped with the session.
    @discardableResult
    func start(_ program: String, _ arguments: [String], environment: [String: String]) throws
        -> BackgroundProcess
    {
        let name = (program as NSString).lastPathComponent
        let process = try BackgroundProcess(
            XTools.path(of: program) ?? program, arguments, environment: environment,
            log: directory.file("\(name)-\(processes.count).log"))
        processes.append(process)
        return process
    }

    /// Runs an X client to completion on this display.
    func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        return try TestSupport.run(XTools.path(of: program) ?? program, arguments, environment: environment)
    }

    /// Waits for a visible window of `windowClass` other than those in `old`, failing
    /// after a bound, or at once when `owner` (the program expected to show it) has
    /// exited, and returns the ids of the visible ones. Passing the ids seen before
    /// waits for a launcher's next window rather than finding the closing one.
    @discardableResult
    func waitForWindow(class windowClass: String, from owner: BackgroundProcess, other old: Set<String> = [])
        async throws -> Set<String>
    {
        var ids: Set<String> = []
        let name = owner.name
        try await waitUntil("a new visible \(windowClass) window on \(display); \(name)'s log: \(owner.log)")
        {
            let result = try run("xdotool", ["search", "--onlyvisible", "--class", windowClass])
            // X may hand a new client the ids of one that left: the owner's pid tells them apart.
            ids = Set(
                try result.stdout.split(separator: "\n").map {
                    "\($0):" + (try run("xdotool", ["getwindowpid", String($0)]).stdout)
                })
            if result.status == 0 && !ids.subtracting(old).isEmpty { return true }
            guard owner.isRunning else {
                throw TimedOut(
                    description:
                        "\(name) \(owner.ending) before a new \(windowClass) window showed on "
                        + "\(display); its log: \(owner.log)")
            }
            return false
        }
        return ids
    }

    /// Types `text` into the focused window, then presses Return.
    func type(_ text: String, thenReturn: Bool = true) throws {
        _ = try run("xdotool", ["type", "--delay", "20", text])
        if thenReturn { _ = try run("xdotool", ["key", "Return"]) }
    }

    /// A PNG of the whole screen, saved in the session's directory and kept as
    /// ``Screenshots/keep(_:as:)`` says.
    @discardableResult
    func screenshot(_ name: String) throws -> String {
        let path = directory.file(name + ".png")
        let result = try run("import", ["-window", "root", path])
        #expect(result.status == 0, "import: \(result)")
        try Screenshots.keep(path, as: name)
        return path
    }

    /// Xvfb chooses a free display itself (`-displayfd`), claiming it by binding its
    /// socket, and writes the number to its standard output once it accepts clients.
    /// Choosing a number here and checking for the lock file raced when tests started
    /// servers at once: the loser exits, but a check made before it did found the
    /// winner's display serving, and the test then ran on another test's server.
    fileprivate static func start(width: Int, height: Int) async throws -> (XSession, BackgroundProcess) {
        let directory = try TempDirectory()
        // Read without blocking as the wait polls, rather than by a readability
        // handler: its dispatch source would still watch the descriptor when the pipe
        // is closed after the first line.
        let ready = try ProgramSpawn.pipe(nonblockingRead: true)
        defer { close(ready.read) }
        let server: BackgroundProcess
        do {
            defer { close(ready.write) }
            server = try BackgroundProcess(
                XTools.path(of: "Xvfb") ?? "Xvfb",
                // Without -noreset the server resets whenever its last client leaves,
                // and a client that connects meanwhile is refused: a launcher started
                // right after the previous one closed failed with "Failed to open
                // display".
                ["-displayfd", "1", "-noreset", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                environment: ProcessInfo.processInfo.environment, log: directory.file("xvfb.log"),
                standardOutput: ready.write)
        }
        var output = LineReader(ready.read)
        do {
            var number = ""
            try await waitUntil("Xvfb to choose a display") {
                if let line = output.nextLine() {
                    number = line
                    return true
                }
                guard server.isRunning else {
                    throw TimedOut(description: "Xvfb \(server.ending): \(server.log)")
                }
                return false
            }
            guard !number.isEmpty, number.allSatisfy(\.isNumber) else {
                throw TimedOut(description: "Xvfb wrote \"\(number)\" for its display; log: \(server.log)")
            }
            return (XSession(directory: directory, display: ":" + number), server)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Stops every program, then the server. A server that had to be killed leaves its
    /// socket in /tmp/.X11-unix (and lock files, once), so how it ended is checked.
    /// Not the socket itself: once this server is gone, another test's Xvfb may take
    /// the same display number at once.
    fileprivate func stop(_ server: BackgroundProcess) async {
        for process in processes.reversed() { await process.stop() }
        await server.stop()
        #expect(
            !server.wasKilled,
            "Xvfb on \(display) ignored SIGTERM and was killed, leaving its socket; log: \(server.log)")
    }
}

/// Runs `body` with a fresh Xvfb and stops every program it started, then the server,
/// and removes the session's files, even when the test fails.
func withXSession<T>(width: Int = 1024, height: Int = 600, _ body: (XSession) async throws -> T) async throws
    -> T
{
    let (session, server) = try await XSession.start(width: width, height: height)
    return try await withCleanup({ try await body(session) }, cleanup: { await session.stop(server) })
}
