import Foundation
import Testing

/// A private bus standing in for the system bus, with python-dbusmock serving one of
/// its templates on it (Debian's `python3-dbusmock`): the real D-Bus protocol, the
/// service's real interface. The mock logs every call made to it (``calls``). Use it
/// through ``withMockSystemBus(template:name:_:)``, which stops both however the
/// test ends.
public final class MockSystemBus {
    public let directory: TempDirectory
    public let address: String
    /// The service's bus name.
    public let name: String
    private let template: String
    private let bus: BackgroundProcess
    private var mock: BackgroundProcess
    /// Other services served beside it (``serve(template:name:)``).
    private var others: [BackgroundProcess] = []

    fileprivate init(template: String, name: String) throws {
        directory = try TempDirectory()
        address = "unix:path=\(directory.file("system-bus"))"
        self.name = name
        self.template = template
        bus = try BackgroundProcess(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
            environment: Self.environment(address), log: directory.file("dbus-daemon.log"))
        mock = try Self.startMock(template, address: address, directory: directory)
    }

    private static func environment(_ address: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }

    private static func startMock(
        _ template: String, address: String, directory: TempDirectory, calls: String = "calls.log"
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            "/usr/bin/python3",
            ["-m", "dbusmock", "--system", "--template", template, "--logfile", directory.file(calls)],
            environment: environment(address), log: directory.file("dbusmock-\(template).log"))
    }

    /// This environment with the system bus set to this one, for a daemon to use.
    public var environment: [String: String] { Self.environment(address) }

    /// What the mock was called, a line a call (`Set /path iface.Prop "value"`,
    /// `MethodName args…`): every call since it last started.
    public var calls: String {
        (try? String(contentsOfFile: directory.file("calls.log"), encoding: .utf8)) ?? ""
    }

    /// Waits until the mock's `name` is on the bus.
    fileprivate func waitUntilServing() async throws {
        try await waitUntilServing(name, by: mock)
    }

    private func waitUntilServing(_ name: String, by process: BackgroundProcess) async throws {
        try await process.waitWhileRunning("dbusmock to serve \(name)") {
            try run("/usr/bin/busctl", ["--address=\(address)", "list", "--no-legend"])
                .stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") }
        }
    }

    /// Serves a second template on this bus beside the first, for a test that
    /// follows several services at once, and waits until it serves `name`. It is
    /// stopped with the bus; its calls are not in ``calls``.
    public func serve(template: String, name: String) async throws {
        let process = try Self.startMock(
            template, address: address, directory: directory, calls: "calls-\(template).log")
        others.append(process)
        try await waitUntilServing(name, by: process)
    }

    /// The process ids of the bus's clients (the mock's among them), as the bus
    /// knows them.
    public var clients: [Int32] {
        get throws {
            try run("/usr/bin/busctl", ["--address=\(address)", "list", "--unique", "--no-legend"]).stdout
                .split(separator: "\n").compactMap { line in
                    line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                        .flatMap { Int32($0) }
                }
        }
    }

    /// Stops the bus itself, as a system bus that dies would: every client loses it.
    public func stopBus() async {
        await bus.stop()
    }

    /// Stops the service, as a crash or `systemctl stop` would: its name leaves the bus.
    public func stopService() async {
        await mock.stop()
    }

    /// Starts the service again, anew from its template, and waits until it serves.
    public func startService() async throws {
        mock = try Self.startMock(template, address: address, directory: directory)
        try await waitUntilServing()
    }

    /// Calls `member` of `interface` on `destination`'s object at `path`, as another
    /// program on the system would: `busctl call` with a signature and its arguments.
    public func call(
        destination: String, path: String, interface: String, member: String, _ arguments: [String]
    ) throws {
        let result = try run(
            "/usr/bin/busctl",
            ["--address=\(address)", "call", destination, path, interface, member] + arguments)
        #expect(result.status == 0, "busctl call \(member): \(result.stderr)")
    }

    /// Sets a property of the service, as another program would: `value` in
    /// busctl's words (`"as", "2", "a", "b"` for an array of two strings).
    public func setProperty(path: String, interface: String, _ property: String, _ value: String...) throws {
        try call(
            destination: name, path: path, interface: "org.freedesktop.DBus.Properties", member: "Set",
            ["ssv", interface, property] + value)
    }

    /// A property of the service, as `busctl get-property` prints it (`s "balanced"`).
    public func property(path: String, interface: String, _ property: String) throws -> String {
        try run("/usr/bin/busctl", ["--address=\(address)", "get-property", name, path, interface, property])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    fileprivate func stop() async {
        for other in others { await other.stop() }
        await mock.stop()
        await bus.stop()
    }
}

/// Runs `body` with a private system bus on which dbusmock serves `template`, whose
/// service is `name`.
public func withMockSystemBus<T>(
    template: String, name: String, _ body: (MockSystemBus) async throws -> T
) async throws -> T {
    let bus = try MockSystemBus(template: template, name: name)
    do {
        try await bus.waitUntilServing()
        let result = try await body(bus)
        await bus.stop()
        return result
    } catch {
        await bus.stop()
        throw error
    }
}
