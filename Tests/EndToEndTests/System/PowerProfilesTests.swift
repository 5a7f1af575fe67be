import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `children-from: power-profiles` against power-profiles-daemon as python-dbusmock
/// serves it on a private system bus: the real menud, the real D-Bus protocol.
@Suite(.ownThread) struct PowerProfilesTests {
    static let config = """
        menu:
          - id: power
            title: Power
            children-from: power-profiles
        """
    static let name = "net.hadess.PowerProfiles"
    static let path = "/net/hadess/PowerProfiles"

    private func withPowerProfiles(_ body: (MockSystemBus, TestDaemon) async throws -> Void) async throws {
        try await withMockSystemBus(template: "power_profiles_daemon", name: Self.name) { bus in
            try await withConfigFile(Self.config) { config in
                try await withDaemon(config: config, environment: bus.environment) { daemon in
                    try await body(bus, daemon)
                }
            }
        }
    }

    private func activeProfile(_ bus: MockSystemBus) throws -> String {
        try bus.property(path: Self.path, interface: Self.name, "ActiveProfile")
    }

    /// The profiles the daemon offers are a choice of the active one, and a pick sets
    /// the daemon's profile: the mock is called `Set`.
    @Test func aPickSetsTheDaemonsProfile() async throws {
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            #expect(
                try daemon.rows(below: "power") == [
                    "power/profile Profile [balanced]", "power/profile/power-saver Power saver",
                    "power/profile/balanced Balanced", "power/profile/performance Performance",
                ])
            #expect(try daemon.request("set power/profile performance").isOK)
            try await waitUntil("the daemon's profile to be set; calls:\n\(bus.calls)") {
                try activeProfile(bus) == "s \"performance\""
            }
            #expect(bus.calls.contains("Set \(Self.path) \(Self.name).ActiveProfile \"performance\""))
            #expect(try daemon.rows(below: "power").first == "power/profile Profile [performance]")
        }
    }

    /// A change made by another program reaches a watching client as one value
    /// record, heard from the daemon's signal.
    @Test func anOutsideChangeReachesAWatcher() async throws {
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            let events = try daemon.connect()
            try events.subscribe("value")
            try bus.setProperty(path: Self.path, interface: Self.name, "ActiveProfile", "s", "power-saver")
            let group = try events.readEventGroup()
            #expect(group.records.contains("value\tpower/profile\tpower-saver"), "\(group.records)")
            #expect(try activeProfile(bus) == "s \"power-saver\"")
        }
    }

    /// The daemon stopping makes one error row and one log line; started again, it is
    /// read anew. menud keeps serving throughout.
    @Test func aDaemonThatGoesAndComesBackIsFollowed() async throws {
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            await bus.stopService()
            try await daemon.waitForRows(
                below: "power", ["power/error Error: power-profiles-daemon is not running"])
            #expect(try daemon.request("ping").isOK)
            try await bus.startService()
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("power-profiles:") }
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.first?.contains("power-profiles-daemon is not running") == true)
        }
    }

    /// An answer menud cannot show (profiles of another shape) is an error row, not
    /// a crash.
    @Test func aGarbledAnswerIsAnErrorRow() async throws {
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            try bus.setProperty(path: Self.path, interface: Self.name, "Profiles", "as", "1", "bad id!")
            try await daemon.waitForRows(
                below: "power", ["power/error Error: power-profiles-daemon offers no profiles menud can show"]
            )
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// The bus is connected while a group shows a service, and only then: a menu
    /// with none never connects, and a reload that drops the last closes it.
    @Test func theBusIsConnectedOnlyWhileShown() async throws {
        try await withMockSystemBus(template: "power_profiles_daemon", name: Self.name) { bus in
            try await withConfigFile(Self.config) { config in
                try await withDaemon(config: config, environment: bus.environment) { daemon in
                    try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
                    #expect(try bus.clients.contains(daemon.pid))
                    try "menu:\n  - {id: other, title: Other}\n".write(
                        toFile: config, atomically: true, encoding: .utf8)
                    #expect(try daemon.request("reload").isOK)
                    try await waitUntil("menud to leave the bus") { try !bus.clients.contains(daemon.pid) }
                }
            }
            try await withConfigFile("menu:\n  - {id: other, title: Other}\n") { config in
                try await withDaemon(config: config, environment: bus.environment) {
                    (daemon: TestDaemon) async throws in
                    #expect(try daemon.request("ping").isOK)
                    #expect(try !bus.clients.contains(daemon.pid))
                }
            }
        }
    }

    /// No system bus at all, or one that dies, is an error row that says so, and
    /// one log line; menud keeps serving.
    @Test func aMissingOrDyingBusIsAnErrorRow() async throws {
        let missing = try TempDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(missing.file("no-bus"))"
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config, environment: environment) {
                (daemon: TestDaemon) async throws in
                try await daemon.waitForRows(
                    below: "power", ["power/error Error: the system bus is not there"])
                #expect(
                    daemon.log.components(separatedBy: "system: no system bus").count == 2, "\(daemon.log)")
            }
        }
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            await bus.stopBus()
            try await daemon.waitForRows(below: "power", ["power/error Error: the system bus is not there"])
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("system:") }
            #expect(lines.count == 1 && lines[0].contains("system: the system bus went away"), "\(lines)")
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// Python run inside the mock (dbusmock's `AddMethod` runs its code there): its
    /// `Set` refuses every property from then on, as a daemon that denies the caller.
    static let refuseSets = """
        @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ssv", out_signature="")
        def refuse(self, interface, name, value, *rest, **keywords):
            raise dbus.exceptions.DBusException("not allowed", name="org.freedesktop.DBus.Error.AccessDenied")
        type(self).Set = refuse
        """

    /// A pick the daemon refuses is one log line with its reason, and the choice goes
    /// back to the profile the daemon has.
    @Test func aRefusedPickGoesBack() async throws {
        try await withPowerProfiles { bus, daemon in
            try await daemon.waitForRows(below: "power", first: "power/profile Profile [balanced]")
            try bus.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                member: "AddMethod", ["sssss", Self.name, "RefuseSets", "", "", Self.refuseSets])
            try bus.call(
                destination: Self.name, path: Self.path, interface: Self.name, member: "RefuseSets", [])
            let events = try daemon.connect()
            try events.subscribe("value")
            #expect(try daemon.request("set power/profile performance").isOK)
            var heard: [String] = []
            while heard.last != "value\tpower/profile\tbalanced" {
                heard += try events.readEventGroup().records.filter { $0.hasPrefix("value\tpower/profile\t") }
            }
            #expect(heard == ["value\tpower/profile\tperformance", "value\tpower/profile\tbalanced"])
            #expect(try activeProfile(bus) == "s \"balanced\"")
            let refusals = daemon.log.split(separator: "\n").filter { $0.contains("could not set") }
            #expect(refusals.count == 1 && refusals[0].contains("AccessDenied"), "\(daemon.log)")
        }
    }
}
