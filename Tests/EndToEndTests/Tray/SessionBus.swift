import Foundation
import TestSupport
import Testing

/// A private D-Bus session bus (`dbus-daemon --session`) for one test, on a socket in
/// the test's directory, and the real D-Bus clients that talk to it (`busctl`, and
/// `gdbus`, which shows an error's name). Use it through ``withSessionBus(_:)``, or
/// ``withSessionBus(in:_:)`` for a bus of a sway session's user, which stop the bus
/// however the test ends.
final class SessionBus {
    static let programs = ["dbus-daemon", "busctl", "gdbus"]

    let directory: TempDirectory
    let address: String
    /// What a client of this bus gets in its environment: the test's own (or the
    /// session's), with the bus.
    let environment: [String: String]
    private let process: BackgroundProcess
    /// Runs a client program, found on PATH, to completion against this bus.
    private let runClient: (_ program: String, _ arguments: [String]) throws -> ProcessResult
    /// Starts a client program, found on PATH, in the background against this bus.
    private let startClient: (_ program: String, _ arguments: [String]) throws -> BackgroundProcess

    private init(
        directory: TempDirectory, address: String, environment: [String: String],
        start: @escaping (String, [String]) throws -> BackgroundProcess,
        run: @escaping (String, [String]) throws -> ProcessResult
    ) throws {
        self.directory = directory
        self.address = address
        self.environment = environment
        startClient = start
        runClient = run
        process = try start("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"])
    }

    /// A bus of the test process's user, its clients run with the test's environment.
    fileprivate convenience init(directory: TempDirectory) throws {
        let address = "unix:path=\(directory.file("bus"))"
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        var started = 0
        try self.init(
            directory: directory, address: address, environment: environment,
            start: { [environment] program, arguments in
                started += 1
                return try BackgroundProcess(
                    XTools.path(of: program) ?? "/usr/bin/\(program)", arguments, environment: environment,
                    log: directory.file("\(program)-\(started).log"))
            },
            run: { [environment] program, arguments in
                try TestSupport.run(
                    XTools.path(of: program) ?? "/usr/bin/\(program)", arguments, environment: environment)
            })
    }

    /// A bus of `sway`'s user, in its session: its clients run as that user, and every
    /// client the session starts afterwards is given the bus.
    fileprivate convenience init(in sway: SwaySession) throws {
        let address = "unix:path=\(sway.directory.file("bus"))"
        sway.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address
        try self.init(
            directory: sway.directory, address: address, environment: sway.environment,
            start: { program, arguments in try sway.start(program, arguments) },
            run: { program, arguments in try sway.run(program, arguments) })
    }

    fileprivate func waitUntilUp() async throws {
        try await process.waitWhileRunning("dbus-daemon to listen", state: address) {
            (try? busctl(["list"]))?.status == 0
        }
    }

    fileprivate func stop() async { await process.stop() }

    /// Runs `busctl --user ARGUMENTS` against this bus.
    func busctl(_ arguments: [String]) throws -> ProcessResult {
        try runClient("busctl", ["--user"] + arguments)
    }

    /// Runs `gdbus ARGUMENTS --session`, which names a D-Bus error in what it prints.
    func gdbus(_ arguments: [String]) throws -> ProcessResult {
        try runClient("gdbus", arguments)
    }

    /// `busctl --json=short call …`, its reply's `data` parsed; fails on a D-Bus error.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ signature: String,
        _ arguments: [String]
    ) throws -> [Any] {
        let result = try busctl(
            ["--json=short", "call", destination, path, interface, member, signature, "--"] + arguments)
        guard result.status == 0 else {
            throw BusCallFailed(message: result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // A reply without arguments prints nothing.
        guard !result.stdout.isEmpty else { return [] }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["data"] as? [Any] ?? []
    }

    /// The bus names that start with `prefix`.
    func names(startingWith prefix: String) throws -> [String] {
        let reply = try call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", "", [])
        return (reply.first as? [String] ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// One property's value, as busctl's JSON gives it.
    func property(_ destination: String, _ path: String, _ interface: String, _ name: String) throws -> Any? {
        let result = try busctl(["--json=short", "get-property", destination, path, interface, name])
        guard result.status == 0 else { throw BusCallFailed(message: result.stderr) }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["data"]
    }

    func owner(of name: String) throws -> String? {
        try call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", "s",
            [name]
        )
        .first as? String
    }

    /// `busctl monitor` in the background, logging one JSON object per message, and
    /// started once it says it is monitoring.
    func monitor(match: String) async throws -> BackgroundProcess {
        let monitor = try startClient("busctl", ["--user", "monitor", "--json=short", "--match", match])
        try await monitor.waitWhileRunning("busctl monitor to start") { monitor.log.contains("Monitoring") }
        return monitor
    }
}

/// A message a ``SessionBus/monitor(match:)`` logged: its member, its sender's
/// unique name, and its arguments as busctl's JSON gave them.
struct MonitoredMessage {
    var member: String
    var sender: String
    var data: [Any]
}

extension BackgroundProcess {
    /// The messages a `busctl monitor --json=short` has logged so far, in order.
    var monitoredMessages: [MonitoredMessage] {
        log.split(separator: "\n").compactMap { line in
            guard
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let member = object["member"] as? String,
                let data = (object["payload"] as? [String: Any])?["data"] as? [Any]
            else { return nil }
            return MonitoredMessage(member: member, sender: object["sender"] as? String ?? "", data: data)
        }
    }
}

/// A D-Bus error reply, as busctl printed it.
struct BusCallFailed: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func withSessionBus<T>(_ body: (SessionBus) async throws -> T) async throws -> T {
    let directory = try TempDirectory()
    return try await withStarted(try SessionBus(directory: directory), body)
}

/// A session bus of `sway`'s user; the session's clients started from now on use it.
func withSessionBus<T>(in sway: SwaySession, _ body: (SessionBus) async throws -> T) async throws -> T {
    try await withStarted(try SessionBus(in: sway), body)
}

private func withStarted<T>(_ bus: SessionBus, _ body: (SessionBus) async throws -> T) async throws -> T {
    try await withCleanup(
        {
            try await bus.waitUntilUp()
            return try await body(bus)
        }, cleanup: { await bus.stop() })
}
