import Foundation
import MenuClient
import MenuProtocol
import Testing

/// Runs `body` with `text` written to a config file of its own, which is removed
/// afterwards.
public func withConfigFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
    let directory = try TempDirectory()
    let path = directory.file("menu.yaml")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    // The directory is removed when it is released, which may be right after its last use.
    defer { withExtendedLifetime(directory) {} }
    return try await body(path)
}

/// A real `menud` process on a socket in its own temporary directory, serving the
/// fixture menu, with its working directory there too (the fixture's items write
/// into it). Use it through ``withDaemon(config:arguments:_:)``, which stops it and
/// removes everything even when the test fails.
public final class TestDaemon {
    public let directory: TempDirectory
    public let socketPath: String
    public let logPath: String
    /// Started by ``start()``.
    public private(set) var process: BackgroundProcess!
    private let command: [String]
    private let environment: [String: String]

    public var pid: Int32 { process.pid }

    /// With `config` nil the daemon looks for one itself; `environment` replaces its
    /// environment (for `HOME` and `XDG_CONFIG_HOME`). `executable` is the build's menud
    /// unless a test runs another (an installed one).
    /// `launcher` runs the daemon through another program (such as `prlimit … --`),
    /// which must exec it. Only with `watch` does the daemon watch its config file:
    /// each watch is an inotify instance, and the tests run in parallel as one user,
    /// whose instances are few (128 by default).
    public init(
        directory: TempDirectory, config: String?, socketPath: String? = nil, arguments: [String] = [],
        environment: [String: String]? = nil, launcher: [String] = [], watch: Bool = false,
        executable: String = TestPaths.menud
    ) throws {
        self.directory = directory
        self.socketPath = socketPath ?? directory.file("run/socket")
        logPath = directory.file("menud.log")
        // A test must never read or write the real user's state file.
        let stateArguments =
            arguments.contains("--state") || arguments.contains("--no-state")
            ? [] : ["--state", directory.file("state")]
        command =
            (launcher.isEmpty ? [executable] : launcher + [executable])
            + (config.map { ["--config", $0] } ?? []) + ["--socket", self.socketPath] + stateArguments
            + (watch || arguments.contains("--no-watch") ? [] : ["--no-watch"]) + arguments
        self.environment =
            environment.map(SanitizerReport.keepingOptions) ?? ProcessInfo.processInfo.environment
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts the daemon and waits until it greets a client: its socket accepts
    /// connections as soon as it is bound, before the daemon has finished starting
    /// (and logging that it has), but it greets only from its running loop.
    public func start() async throws {
        process = try BackgroundProcess(
            command[0], Array(command.dropFirst()), environment: environment, log: logPath,
            directory: directory.path)
        var answer: String?
        try await waitUntil(
            "menud to greet on \(socketPath); its last answer: \(answer ?? "none"); log:\n\(log)"
        ) {
            guard process.isRunning else {
                throw TimedOut(description: "menud \(process.ending); log:\n\(log)")
            }
            guard let probe = try? UnixSocketConnection.connect(path: socketPath) else { return false }
            probe.setReceiveTimeout(seconds: 20)
            answer = try? probe.readLine()
            return answer != nil
        }
    }

    /// Starts the daemon, runs `body` with it and stops it, however `body` ends.
    public func whileRunning<T>(_ body: (TestDaemon) async throws -> T) async throws -> T {
        try await withCleanup(
            {
                try await start()
                return try await body(self)
            }, cleanup: { await stop() })
    }

    /// SIGTERM, then SIGKILL if it does not go; waits for it either way. A sanitizer
    /// report in the log (a leak is reported at exit) fails the test. Only the daemon
    /// is signalled: what it does with its children on the way out is its own.
    public func stop() async {
        guard let process else { return }
        defer { checkLog() }
        guard process.isRunning else { return }
        Foundation.kill(process.pid, SIGTERM)
        try? await waitUntil("menud to exit after SIGTERM", seconds: 10) { !process.isRunning }
        process.killAndReap(group: false)
    }

    /// SIGKILL: no chance to save or clean up, as in a crash.
    public func kill() {
        guard let process else { return }
        defer { checkLog() }
        process.killAndReap(group: false)
    }

    /// Once per daemon: a test may stop it, then stop it again on its way out.
    private var checkedLog = false

    private func checkLog() {
        guard !checkedLog, let process, !process.isRunning else { return }
        checkedLog = true
        SanitizerReport.check(log, from: "menud (pid \(pid), log \(logPath))")
    }

    /// Sends a signal (SIGHUP for a reload) without waiting for anything.
    public func signal(_ signal: Int32) {
        Foundation.kill(process.pid, signal)
    }

    /// A raw protocol client that has already read the greeting.
    public func connect(sourceLocation: SourceLocation = #_sourceLocation) throws -> UnixSocketConnection {
        requireOwnThread("a client of menud", sourceLocation: sourceLocation)
        let connection = try UnixSocketConnection.connect(path: socketPath)
        connection.setReceiveTimeout(seconds: 20)
        let greeting = try connection.readGreeting()
        #expect(greeting == "OK MENUD 1")
        return connection
    }

    /// Sends one request line on a new connection and returns its reply.
    public func request(_ line: String) throws -> ProtocolReply {
        let connection = try connect()
        try connection.send(line + "\n")
        return try connection.readReply()
    }

    /// Runs the real menuctl against this daemon.
    public func menuctl(_ arguments: [String]) throws -> ProcessResult {
        try run(TestPaths.menuctl, ["--socket", socketPath] + arguments)
    }
}

/// Runs `body` against a fresh daemon serving `config` and always cleans up: the daemon
/// is stopped and its directory (socket, log, files the menu wrote) removed.
///
/// Pass `directory` to run several daemons one after another on the same files (a
/// restart); its owner removes it. `environment` replaces the daemon's (a session
/// bus, `HOME`).
public func withDaemon<T>(
    config: String = TestPaths.fixture("menu.yaml"), arguments: [String] = [],
    directory: TempDirectory? = nil, environment: [String: String]? = nil, launcher: [String] = [],
    watch: Bool = false, _ body: (TestDaemon) async throws -> T
) async throws -> T {
    let directory = try directory ?? TempDirectory()
    let daemon = try TestDaemon(
        directory: directory, config: config, arguments: arguments, environment: environment,
        launcher: launcher, watch: watch)
    return try await daemon.whileRunning(body)
}
