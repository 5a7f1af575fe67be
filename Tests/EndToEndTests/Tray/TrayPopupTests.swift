import Foundation
import MenuProtocol
import TestSupport
import Testing

/// The tray icon's middle click (`SecondaryActivate`) opens menud-popup on the daemon
/// that owns the item, and the next one closes it: a real menud on a private session
/// bus, a real popup on Xvfb, found with xdotool, the daemon's side read with menuctl.
@Suite(.ownThread) struct TrayPopupTests {
    static let programs = SessionBus.programs + PopupTests.programs

    static let menu = """
        menu:
          - id: net
            title: Network
            children:
              - {id: wifi, title: Wi-Fi, type: toggle, value: off}
        """

    static let sni = "org.kde.StatusNotifierItem"

    /// The popups the daemon started and that have not exited.
    private static func popups(of daemon: TestDaemon) -> [ProcessEntry] {
        livingDescendants(of: daemon.pid).filter { $0.name == "menud-popup" }
    }

    /// A process's arguments, from `/proc/PID/cmdline`.
    private static func arguments(_ pid: Int32) -> [String] {
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The visible menud-popup windows, as `ID:PID`.
    private static func windows(_ x: XSession) throws -> Set<String> {
        let found = try x.run("xdotool", ["search", "--onlyvisible", "--class", "menud-popup"])
        guard found.status == 0 else { return [] }
        return Set(
            try found.stdout.split(separator: "\n").map {
                "\($0):"
                    + (try x.run("xdotool", ["getwindowpid", String($0)]).stdout)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            })
    }

    /// One middle click: the popup the daemon starts shows a window, runs detached
    /// with its streams on /dev/null, is given the daemon's own socket, and moves the
    /// daemon's focus by its keys. A second click closes it (the popup it starts
    /// closes the first and exits), and the daemon reaps both.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aMiddleClickOpensThePopupAndTheNextClosesIt() async throws {
        try XTools.require(Self.programs)
        try await withSessionBus { bus in
            try await withXSession { x in
                try await withConfigFile(Self.menu) { config in
                    var environment = bus.environment
                    environment["DISPLAY"] = x.display
                    // The popup must find this daemon by its `--socket`, not by this.
                    environment["MENUD_SOCKET"] = x.directory.file("no-such-socket")
                    try await withDaemon(config: config, arguments: ["--tray"], environment: environment) {
                        daemon in
                        try await withCleanup(
                            { try await Self.openAndClose(TrayDaemon(daemon: daemon, bus: bus), x) },
                            cleanup: {
                                for popup in Self.popups(of: daemon) { kill(popup.pid, SIGKILL) }
                            })
                    }
                }
            }
        }
    }

    private static func openAndClose(_ tray: TrayDaemon, _ x: XSession) async throws {
        let daemon = tray.daemon
        let name = try #require(try await tray.waitForItems(["net"])["net"])
        #expect(
            try tray.bus.call(name, "/StatusNotifierItem", sni, "SecondaryActivate", "ii", ["0", "0"]).isEmpty
        )

        var shown: Set<String> = []
        try await waitUntil("the popup's window; menud's log:\n\(daemon.log)") {
            shown = try windows(x)
            return !shown.isEmpty
        }
        let popups = popups(of: daemon)
        #expect(popups.count == 1, "\(popups.map(\.pid))")
        let popup = try #require(popups.first)
        #expect(shown.map { $0.split(separator: ":").last.map(String.init) } == ["\(popup.pid)"], "\(shown)")
        #expect(popup.parent == daemon.pid)
        #expect(popup.session == popup.pid, "the popup leads a session of its own")
        for fd in 0...2 {
            let target = try FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/\(popup.pid)/fd/\(fd)")
            #expect(target == "/dev/null", "the popup's descriptor \(fd): \(target)")
        }
        let arguments = arguments(popup.pid)
        #expect(arguments.first.map { $0.hasSuffix("/menud-popup") } == true, "\(arguments)")
        #expect(Array(arguments.dropFirst()) == ["--socket", daemon.socketPath], "\(arguments)")

        // Its keys move this daemon's focus.
        #expect(try daemon.request("focus net").isOK)
        #expect(try x.run("xdotool", ["key", "Right"]).status == 0)
        try await waitUntil("Right in the popup to open net") {
            try daemon.menuctl(["--raw", "get", "net"]).stdout.contains("\texpanded\t")
        }
        #expect(try x.run("xdotool", ["key", "Down"]).status == 0)
        try await waitUntil("Down in the popup to focus net/wifi") {
            try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tnet/wifi")
        }

        // The next click closes it, and nothing of either popup is left.
        #expect(
            try tray.bus.call(name, "/StatusNotifierItem", sni, "SecondaryActivate", "ii", ["0", "0"]).isEmpty
        )
        try await waitUntil("the second click to close the popup; menud's log:\n\(daemon.log)") {
            Self.popups(of: daemon).isEmpty && zombieChildren(of: daemon.pid).isEmpty
        }
        #expect(try windows(x).isEmpty)
        // Both popups exited with success: a failure would be logged.
        #expect(!daemon.log.contains("tray: the popup"), "\(daemon.log)")
        #expect(daemon.log.components(separatedBy: "tray: started pid").count - 1 == 2, "\(daemon.log)")
        #expect(try daemon.request("ping").isOK)
    }

    /// A menud with no menud-popup beside it and none on PATH: a middle click is a
    /// D-Bus error and one line in the log, a click again within the minute adds
    /// none, and the daemon and its tray go on serving.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func withoutThePopupAClickIsOneLineAndTheDaemonServes() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withConfigFile(Self.menu) { config in
                let directory = try TempDirectory()
                // A menud alone in a folder, and a PATH of an empty one.
                let alone = directory.file("alone")
                let empty = directory.file("empty")
                for folder in [alone, empty] {
                    try FileManager.default.createDirectory(
                        atPath: folder, withIntermediateDirectories: false)
                }
                let menud = alone + "/menud"
                try copyExecutable(TestPaths.menud, to: menud)
                var environment = bus.environment
                environment["PATH"] = empty
                let daemon = try TestDaemon(
                    directory: directory, config: config, arguments: ["--tray"], environment: environment,
                    executable: menud)
                try await daemon.whileRunning { daemon in
                    let tray = TrayDaemon(daemon: daemon, bus: bus)
                    let name = try #require(try await tray.waitForItems(["net"])["net"])
                    func click() throws -> ProcessResult {
                        try bus.gdbus([
                            "call", "--session", "--dest", name, "--object-path", "/StatusNotifierItem",
                            "--method", "\(Self.sni).SecondaryActivate", "0", "0",
                        ])
                    }
                    func lines() -> [Substring] {
                        daemon.log.split(separator: "\n").filter { $0.contains("menud-popup") }
                    }
                    let clock = ContinuousClock()
                    let first = clock.now
                    let refused = try click()
                    #expect(refused.status != 0, "\(refused)")
                    #expect(refused.stderr.contains("org.menud.Error.ActivationFailed"), "\(refused)")
                    #expect(
                        refused.stderr.contains("no menud-popup beside \(menud) or on PATH"), "\(refused)")
                    try await waitUntil("the failure's line in the log:\n\(daemon.log)") { !lines().isEmpty }
                    #expect(lines().count == 1, "\(lines())")
                    #expect(lines().first?.contains("warning") == true, "\(lines())")

                    #expect(try click().status != 0)
                    // The throttle lets a line through once a minute: only a second
                    // click within it is known to add none.
                    if clock.now - first < .seconds(50) {
                        #expect(lines().count == 1, "\(lines())")
                    }

                    #expect(daemon.process.isRunning)
                    #expect(Self.popups(of: daemon).isEmpty)
                    #expect(try daemon.request("ping").isOK)
                    #expect(try tray.items()["net"] == name)
                    // The icon's click still acts on the daemon: it activates the
                    // focused row, the menu's own, which opens.
                    _ = try bus.call(name, "/StatusNotifierItem", Self.sni, "Activate", "ii", ["0", "0"])
                    #expect(try daemon.menuctl(["--raw", "get", "net"]).stdout.contains("\texpanded\t"))
                }
            }
        }
    }
}
