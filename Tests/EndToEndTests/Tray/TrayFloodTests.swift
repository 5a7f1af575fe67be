import Foundation
import TestSupport
import Testing

/// A D-Bus peer that floods a tray item with clicks: the daemon keeps answering its
/// clients, refuses what passes the item's budget, and stops on SIGTERM whatever is
/// still queued. The clicks are sent by dbus-python, without waiting for replies.
@Suite(.ownThread) struct TrayFloodTests {
    /// dbus-python is Debian's python3-dbus, for the system's python (.ci/run).
    static var hasDBusPython: Bool {
        (try? run("/usr/bin/python3", ["-c", "import dbus"]).status) == 0
    }

    /// A menu of 2,000 toggles.
    static let config =
        "menu:\n  - id: big\n    title: Big\n    children:\n"
        + (0..<2000).map { "      - {id: t\($0), title: T\($0), type: toggle}\n" }.joined()

    static let flood = """
        import sys, dbus, dbus.lowlevel
        bus = dbus.bus.BusConnection(sys.argv[1])
        name, entry, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        for _ in range(count):
            m = dbus.lowlevel.MethodCallMessage(name, "/MenuBar", "com.canonical.dbusmenu", "Event")
            m.append(dbus.Int32(entry), "clicked", dbus.String("", variant_level=1), dbus.UInt32(0), signature="isvu")
            m.set_no_reply(True)
            bus.send_message(m)
        bus.flush()
        """

    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs) && (XTools.isCI || hasDBusPython)))
    func aFloodOfClicksLeavesTheDaemonAnsweringAndStoppable() async throws {
        try XTools.require(SessionBus.programs)
        try await withConfigFile(Self.config) { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config, arguments: ["--tray"]) { tray in
                    let name = try #require(try await tray.waitForItems(["big"])["big"])
                    let (_, root) = try bus.layout(of: name)
                    let toggle = try #require(root.entry(labelled: "T0"))
                    let script = tray.daemon.directory.file("flood.py")
                    try Self.flood.write(toFile: script, atomically: true, encoding: .utf8)
                    let sent = try run(
                        "/usr/bin/python3", [script, bus.address, name, "\(toggle.id)", "20000"],
                        environment: bus.environment)
                    #expect(sent.status == 0, "\(sent)")
                    // Answering other clients while the clicks are worked through.
                    #expect(try tray.daemon.request("ping").isOK)
                    #expect(try tray.daemon.menuctl(["get", "big/t1"]).status == 0)
                    // Far fewer clicks ran than were sent: the rest were refused.
                    let log = tray.daemon.log
                    #expect(
                        log.components(separatedBy: "activate big/t0").count - 1 < 10_000,
                        "\(log.suffix(2000))")
                    Foundation.kill(tray.daemon.pid, SIGTERM)
                    try await waitUntil("menud to exit on SIGTERM") { !tray.daemon.process.isRunning }
                }
            }
        }
    }
}
