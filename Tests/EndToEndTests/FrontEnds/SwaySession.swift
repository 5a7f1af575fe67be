import Foundation
import TestSupport
import Testing

/// A headless sway (wlroots' headless backend, drawn by pixman: no GPU, no input
/// device, no Xwayland) running as a ``TestUser``, since sway refuses root, and the
/// Wayland clients a test starts in it as that user. Use it through
/// ``withSwaySession(user:width:height:_:)``, which stops them all however the test
/// ends.
final class SwaySession {
    static let programs = ["sway", "swaymsg", "grim"]

    let user: TestUser
    /// Owned by the user: sway's runtime directory is in it, and its clients write here.
    let directory: TempDirectory
    private let runtimeDirectory: String
    private var display = ""
    private var ipcSocket = ""
    private var processes: [BackgroundProcess] = []
    /// More of the clients' environment, such as a session bus's address.
    var extraEnvironment: [String: String] = [:]

    private init(user: TestUser, directory: TempDirectory, width: Int, height: Int) throws {
        self.user = user
        self.directory = directory
        self.width = width
        self.height = height
        runtimeDirectory = directory.file("xdg")
        menuctl = try user.executable("menuctl")
    }

    /// The output's size, in pixels.
    let width: Int
    let height: Int
    /// The built menuctl as the user may run it (``TestUser/executable(_:)``).
    let menuctl: String

    /// The whole environment of a client of this session, as the user: nothing of the
    /// test process's (root's HOME, a DISPLAY) leaks in. The build's menuctl's folder
    /// leads PATH (the build directory, or the user's copy when the user cannot reach
    /// it: a checkout in a folder only root may enter).
    var environment: [String: String] {
        SanitizerReport.keepingOptions(
            [
                "PATH": (menuctl as NSString).deletingLastPathComponent + ":/usr/local/bin:/usr/bin:/bin",
                "HOME": directory.path,
                "XDG_CONFIG_HOME": directory.file("config"),
                "XDG_CACHE_HOME": directory.file("cache"),
                "XDG_RUNTIME_DIR": runtimeDirectory,
                "WAYLAND_DISPLAY": display,
                "SWAYSOCK": ipcSocket,
                "LANG": "C.UTF-8",
            ].merging(extraEnvironment) { _, extra in extra })
    }

    /// Starts `program` (found on PATH) in this session as the user; it is stopped,
    /// with its process group, before sway.
    @discardableResult
    func start(_ program: String, _ arguments: [String]) throws -> BackgroundProcess {
        let process = try Self.spawn(
            user, program, arguments, environment: environment,
            log: directory.file("\((program as NSString).lastPathComponent)-\(processes.count).log"))
        processes.append(process)
        return process
    }

    /// Runs a client to completion in this session as the user.
    func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        try user.run(XTools.path(of: program) ?? program, arguments, environment: environment)
    }

    /// A PNG of the whole output taken by grim, saved in the session's directory and,
    /// with `keep`, kept as ``Screenshots/keep(_:as:)`` says (docs/img is made so).
    @discardableResult
    func screenshot(_ name: String, keep: Bool = true) throws -> String {
        let path = directory.file(name + ".png")
        let result = try run("grim", [path])
        #expect(result.status == 0, "grim: \(result)")
        if keep { try Screenshots.keep(path, as: name) }
        return path
    }

    /// The output's pixels as they are now (grim, as PPM).
    func frame() throws -> ScreenFrame {
        let path = directory.file("frame.ppm")
        let result = try run("grim", ["-t", "ppm", path])
        guard result.status == 0 else { throw TimedOut(description: "grim: \(result)") }
        return try ScreenFrame(ppm: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Waits until the output's pixels satisfy `condition` and returns them, failing
    /// at once when `client` (the program expected to draw them) has exited.
    @discardableResult
    func waitForFrame(
        _ what: String, drawnBy client: BackgroundProcess, seconds: Double = 20,
        _ condition: (ScreenFrame) -> Bool
    ) async throws -> ScreenFrame {
        var last: ScreenFrame?
        do {
            try await waitUntil(what, seconds: seconds) {
                guard client.isRunning else { throw TimedOut(description: "the client \(client.ending)") }
                let frame = try frame()
                last = frame
                return condition(frame)
            }
        } catch let error as TimedOut {
            throw TimedOut(description: "\(error); the client's log: \(client.log)")
        }
        guard let last else { throw TimedOut(description: "no frame of \(what)") }
        return last
    }

    private static func spawn(
        _ user: TestUser, _ program: String, _ arguments: [String], environment: [String: String], log: String
    ) throws -> BackgroundProcess {
        let command = user.launcher + [XTools.path(of: program) ?? program] + arguments
        return try BackgroundProcess(
            command[0], Array(command.dropFirst()), environment: environment, log: log)
    }

    /// Starts sway and waits until it has made its output: a client started earlier
    /// would find no output to show on.
    fileprivate static func start(user: TestUser, width: Int, height: Int) async throws
        -> (SwaySession, BackgroundProcess)
    {
        let session = try SwaySession(
            user: user, directory: try user.directory(), width: width, height: height)
        // Wayland wants its runtime directory private to the user.
        guard mkdir(session.runtimeDirectory, 0o700) == 0 else {
            throw TimedOut(
                description: "mkdir \(session.runtimeDirectory): \(String(cString: strerror(errno)))")
        }
        try user.own(session.runtimeDirectory)
        let config = session.directory.file("sway.config")
        try """
        xwayland disable
        output HEADLESS-1 resolution \(width)x\(height)
        default_border none
        """.write(toFile: config, atomically: true, encoding: .utf8)
        var environment = session.environment
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WAYLAND_DISPLAY"] = nil
        environment["SWAYSOCK"] = nil
        let server = try spawn(
            user, "sway", ["-c", config], environment: environment, log: session.directory.file("sway.log"))
        do {
            try await waitUntil("sway's sockets in \(session.runtimeDirectory)") {
                guard server.isRunning else { throw TimedOut(description: "sway \(server.ending)") }
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: session.runtimeDirectory)) ?? []
                guard
                    let display = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                    let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") })
                else { return false }
                session.display = display
                session.ipcSocket = session.runtimeDirectory + "/" + ipc
                return true
            }
            try await waitUntil("sway's output HEADLESS-1") {
                guard server.isRunning else { throw TimedOut(description: "sway \(server.ending)") }
                let outputs = try session.run("swaymsg", ["-t", "get_outputs", "--raw"])
                return outputs.status == 0 && outputs.stdout.contains("\"HEADLESS-1\"")
            }
            return (session, server)
        } catch {
            await server.stop()
            throw TimedOut(description: "\(error); sway's log: \(server.log)")
        }
    }

    /// Stops every client, then sway.
    fileprivate func stop(_ server: BackgroundProcess) async {
        for process in processes.reversed() { await process.stop() }
        await server.stop()
    }
}

/// Runs `body` with a fresh headless sway running as `user` and stops every client it
/// started, then sway, and removes the session's files, even when the test fails.
func withSwaySession<T>(
    user: TestUser, width: Int = 1024, height: Int = 120, _ body: (SwaySession) async throws -> T
) async throws -> T {
    let (session, server) = try await SwaySession.start(user: user, width: width, height: height)
    return try await withCleanup({ try await body(session) }, cleanup: { await session.stop(server) })
}
