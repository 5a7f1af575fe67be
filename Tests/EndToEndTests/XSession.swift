import Foundation
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

/// A process started in the background for a test, stopped by ``stop()``.
final class BackgroundProcess {
    let process = Process()
    let logPath: String

    init(_ executable: String, _ arguments: [String], environment: [String: String], log: String) throws {
        logPath = log
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM, then SIGKILL if it does not go; waits for it either way. The
    /// programs started here run menuctl, whose sanitizer reports land in this log.
    func stop() async {
        defer { SanitizerReport.check(log, from: process.executableURL?.lastPathComponent ?? "process") }
        guard process.isRunning else { return }
        process.terminate()
        try? await waitUntil("\(process.executableURL?.lastPathComponent ?? "process") to exit", seconds: 5) {
            !process.isRunning
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
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
        return try EndToEndTests.run(XTools.path(of: program) ?? program, arguments, environment: environment)
    }

    /// Waits for a visible window of `windowClass` other than those in `old`, failing
    /// after a bound, and returns the ids of the visible ones. Passing the ids seen
    /// before waits for a launcher's next window rather than finding the closing one.
    @discardableResult
    func waitForWindow(class windowClass: String, other old: Set<String> = []) async throws -> Set<String> {
        var ids: Set<String> = []
        try await waitUntil("a new visible \(windowClass) window on \(display)") {
            let result = try run("xdotool", ["search", "--onlyvisible", "--class", windowClass])
            // X may hand a new client the ids of one that left: the owner's pid tells them apart.
            ids = Set(
                try result.stdout.split(separator: "\n").map {
                    "\($0):" + (try run("xdotool", ["getwindowpid", String($0)]).stdout)
                })
            return result.status == 0 && !ids.subtracting(old).isEmpty
        }
        return ids
    }

    /// Types `text` into the focused window, then presses Return.
    func type(_ text: String, thenReturn: Bool = true) throws {
        _ = try run("xdotool", ["type", "--delay", "20", text])
        if thenReturn { _ = try run("xdotool", ["key", "Return"]) }
    }

    /// A PNG of the whole screen, saved in the session's directory and, when
    /// `MENUD_SCREENSHOTS` names a directory, copied there (that is how docs/img is made).
    @discardableResult
    func screenshot(_ name: String) throws -> String {
        let path = directory.file(name + ".png")
        let result = try run("import", ["-window", "root", path])
        #expect(result.status == 0, "import: \(result)")
        if let keep = ProcessInfo.processInfo.environment["MENUD_SCREENSHOTS"] {
            let target = URL(fileURLWithPath: keep).appendingPathComponent(name + ".png")
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(atPath: path, toPath: target.path)
        }
        return path
    }

    fileprivate static func start(width: Int, height: Int) async throws -> (XSession, BackgroundProcess) {
        let directory = try TempDirectory()
        // A display number from our pid, skipping any whose lock file exists; another
        // server may still take it first, so a server that exits moves on to the next.
        var candidate = 100 + Int(getpid() % 500) + Int.random(in: 0..<100)
        for _ in 0..<20 {
            candidate += 1
            if FileManager.default.fileExists(atPath: "/tmp/.X\(candidate)-lock") { continue }
            let session = XSession(directory: directory, display: ":\(candidate)")
            let server = try BackgroundProcess(
                XTools.path(of: "Xvfb") ?? "Xvfb",
                [":\(candidate)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                environment: ProcessInfo.processInfo.environment, log: directory.file("xvfb-\(candidate).log")
            )
            do {
                try await waitUntil("Xvfb to serve \(session.display)") {
                    guard server.isRunning else { throw TimedOut(description: "Xvfb exited: \(server.log)") }
                    return try session.run("xdotool", ["getdisplaygeometry"]).status == 0
                }
                return (session, server)
            } catch {
                await server.stop()
                if server.log.contains("already active") || server.log.contains("in use") { continue }
                throw error
            }
        }
        throw TimedOut(description: "no free X display")
    }

    fileprivate func stopAll() async {
        for process in processes.reversed() { await process.stop() }
    }
}

/// Runs `body` with a fresh Xvfb and stops every program it started, then the server,
/// and removes the session's files, even when the test fails.
func withXSession<T>(width: Int = 1024, height: Int = 600, _ body: (XSession) async throws -> T) async throws
    -> T
{
    let (session, server) = try await XSession.start(width: width, height: height)
    do {
        let result = try await body(session)
        await session.stopAll()
        await server.stop()
        return result
    } catch {
        await session.stopAll()
        await server.stop()
        throw error
    }
}
