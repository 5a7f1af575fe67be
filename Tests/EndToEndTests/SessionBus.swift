import Foundation
import Testing

/// A private D-Bus session bus (`dbus-daemon --session`) for one test, on a socket in
/// the test's directory, and the real D-Bus clients that talk to it (`busctl`, and
/// `gdbus`, which shows an error's name). Use it
/// through ``withSessionBus(_:)``, which stops the bus however the test ends.
final class SessionBus {
    static let programs = ["dbus-daemon", "busctl", "gdbus"]

    let directory: TempDirectory
    let address: String
    private let process: BackgroundProcess

    fileprivate init(directory: TempDirectory) throws {
        self.directory = directory
        address = "unix:path=\(directory.file("bus"))"
        process = try BackgroundProcess(
            XTools.path(of: "dbus-daemon") ?? "/usr/bin/dbus-daemon",
            ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
            environment: ["PATH": "/usr/bin:/bin"], log: directory.file("dbus-daemon.log"))
    }

    /// What a client of this bus gets in its environment: the test's own, with the bus.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    fileprivate func waitUntilUp() async throws {
        try await process.waitWhileRunning("dbus-daemon to listen", state: { address }) {
            (try? busctl(["list"]))?.status == 0
        }
    }

    fileprivate func stop() async { await process.stop() }

    /// Runs `busctl --user ARGUMENTS` against this bus.
    func busctl(_ arguments: [String]) throws -> ProcessResult {
        try run(
            XTools.path(of: "busctl") ?? "/usr/bin/busctl", ["--user"] + arguments, environment: environment)
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

    /// `busctl monitor` in the background, writing one JSON object per message.
    func monitor(match: String, log: String) throws -> BackgroundProcess {
        try BackgroundProcess(
            XTools.path(of: "busctl") ?? "/usr/bin/busctl",
            ["--user", "monitor", "--json=short", "--match", match],
            environment: environment, log: log)
    }
}

/// A D-Bus error reply, as busctl printed it.
struct BusCallFailed: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func withSessionBus<T>(_ body: (SessionBus) async throws -> T) async throws -> T {
    let directory = try TempDirectory()
    let bus = try SessionBus(directory: directory)
    return try await withCleanup(
        {
            try await bus.waitUntilUp()
            return try await body(bus)
        }, cleanup: { await bus.stop() })
}
