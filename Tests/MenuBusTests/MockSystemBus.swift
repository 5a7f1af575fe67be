import Foundation
import TestSupport
import Testing

/// A private bus standing in for the system bus, with python-dbusmock serving one of
/// its templates on it (Debian's `python3-dbusmock`): the real D-Bus protocol, the
/// service's real interface. Use it through ``withMockSystemBus(template:_:)``,
/// which stops both however the test ends.
final class MockSystemBus {
    let directory: TempDirectory
    let address: String
    private let bus: BackgroundProcess
    private let mock: BackgroundProcess

    fileprivate init(template: String) throws {
        directory = try TempDirectory()
        address = "unix:path=\(directory.file("system-bus"))"
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        bus = try BackgroundProcess(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
            environment: environment, log: directory.file("dbus-daemon.log"))
        mock = try BackgroundProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", template],
            environment: environment, log: directory.file("dbusmock.log"))
    }

    /// Waits until the mock's `name` is on the bus.
    fileprivate func waitUntilServing(_ name: String) async throws {
        try await mock.waitWhileRunning("dbusmock to serve \(name)") {
            try TestSupport.run("/usr/bin/busctl", ["--address=\(address)", "list", "--no-legend"])
                .stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") }
        }
    }

    /// Calls `member` of `interface` on `destination`'s object at `path`, as another
    /// program on the system would: `busctl call` with a signature and its arguments.
    func call(destination: String, path: String, interface: String, member: String, _ arguments: [String])
        throws
    {
        let result = try TestSupport.run(
            "/usr/bin/busctl",
            ["--address=\(address)", "call", destination, path, interface, member] + arguments)
        #expect(result.status == 0, "busctl call \(member): \(result.stderr)")
    }

    fileprivate func stop() async {
        await mock.stop()
        await bus.stop()
    }
}

/// Runs `body` with a private system bus on which dbusmock serves `template`, whose
/// service is `name`.
func withMockSystemBus<T>(template: String, name: String, _ body: (MockSystemBus) async throws -> T)
    async throws -> T
{
    let bus = try MockSystemBus(template: template)
    do {
        try await bus.waitUntilServing(name)
        let result = try await body(bus)
        await bus.stop()
        return result
    } catch {
        await bus.stop()
        throw error
    }
}
