import Foundation
import TestSupport
import Testing

/// menud-popup as a layer-shell surface in a headless sway, typed at through
/// wayvnc's keyboard (``VNCKeyboard``) as a user would. sway refuses root, so the
/// session, menud and the popup run as a user made for the test. Every outcome is
/// read from menud with menuctl, never from the popup.
@Suite(.ownThread) struct PopupSwayTests {
    static let programs = SwaySession.programs + TrayPointer.programs

    /// Keysyms (X11's keysymdef.h), as wayvnc takes them.
    static let right: UInt32 = 0xff53
    static let down: UInt32 = 0xff54
    static let enter: UInt32 = 0xff0d
    static let escape: UInt32 = 0xff1b

    /// The popup opens under the top left corner with the keyboard, its keys move the
    /// daemon's focus, open a group and flip a toggle, and Escape closes it.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aLayerSurfaceWithTheKeyboard() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 800, height: 600) { sway in
                try await withConfigFile(PopupTests.menu) { config in
                    try await user.withDaemon(config: config) { daemon in
                        func get(_ path: String, _ field: Int) throws -> String {
                            let fields = try user.menuctl(daemon, ["--raw", "get", path]).stdout
                                .trimmingCharacters(in: .newlines).split(
                                    separator: "\t", omittingEmptySubsequences: false)
                            return fields.count > field ? String(fields[field]) : ""
                        }
                        let (pointer, keyboard) = try await Self.seat(sway)
                        try pointer.move(x: sway.width - 1, y: sway.height - 1)
                        let empty = try sway.frame()
                        let popup = try sway.start(
                            try user.executable("menud-popup"),
                            ["--socket", daemon.socketPath, "--anchor", "top,left", "--margin", "8"])
                        try await sway.waitForFrame("the popup to show", drawnBy: popup) { $0 != empty }
                        #expect(try user.menuctl(daemon, ["focus", "net"]).status == 0)

                        try keyboard.tap(Self.right)
                        try await waitUntil("Right to open net; the popup's log: \(popup.log)") {
                            try get("net", 4) == "expanded"
                        }
                        try keyboard.tap(Self.down)
                        try await waitUntil("Down to focus net/wifi") {
                            try user.menuctl(daemon, ["--raw", "focused"]).stdout.contains("\tnet/wifi")
                        }
                        try keyboard.tap(Self.enter)
                        try await waitUntil("Enter to flip net/wifi") { try get("net/wifi", 7) == "on" }
                        try sway.screenshot("popup-sway")

                        try keyboard.tap(Self.escape)
                        try await waitUntil("Escape to close the popup") { !popup.isRunning }
                        #expect(popup.exitStatus == 0, "\(popup.ending); \(popup.log)")
                    }
                }
            }
        }
    }

    /// A launcher opened over the popup takes the keyboard from it, and the popup
    /// closes, changing nothing in the daemon. Which surface may take the keyboard is
    /// the compositor's rule: sway gives it to one on a higher layer.
    @Test(.enabled(if: XTools.shouldRun(programs + ["fuzzel"])))
    func itClosesWhenALauncherTakesTheKeyboard() async throws {
        try XTools.require(Self.programs + ["fuzzel"])
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 800, height: 600) { sway in
                try await withConfigFile(PopupTests.menu) { config in
                    try await user.withDaemon(config: config) { daemon in
                        let (pointer, _) = try await Self.seat(sway)
                        try pointer.move(x: sway.width - 1, y: sway.height - 1)
                        let empty = try sway.frame()
                        let before = try user.menuctl(daemon, ["--raw", "rows"]).stdout
                        let popup = try sway.start(
                            try user.executable("menud-popup"),
                            ["--socket", daemon.socketPath, "--anchor", "top,left"])
                        try await sway.waitForFrame("the popup to show", drawnBy: popup) { $0 != empty }
                        #expect(popup.isRunning)
                        // On the overlay layer, above the popup's: sway keeps the keyboard
                        // from a surface of the popup's own layer.
                        _ = try sway.start("fuzzel", ["--layer", "overlay"])
                        try await waitUntil("the popup to close; its log: \(popup.log)") { !popup.isRunning }
                        #expect(popup.exitStatus == 0, "\(popup.ending); \(popup.log)")
                        #expect(try user.menuctl(daemon, ["--raw", "rows"]).stdout == before)
                    }
                }
            }
        }
    }

    /// docs/integrations.md's waybar block, as it is written, in a real waybar: a
    /// click on the module opens the popup under the bar, with the keyboard, and the
    /// next click closes it. The screenshot is the README's.
    @Test(.enabled(if: XTools.shouldRun(programs + ["waybar", "pgrep"])))
    func theBarsClickOpensItUnderTheBarAndTheNextClosesIt() async throws {
        try XTools.require(Self.programs + ["waybar", "pgrep"])
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 800, height: 600) { sway in
                try await withConfigFile(Self.barMenu) { config in
                    try await user.withDaemon(config: config) { daemon in
                        // The block names no socket: the daemon's is the session's.
                        sway.extraEnvironment["MENUD_SOCKET"] = daemon.socketPath
                        _ = try user.executable("menud-popup")
                        func running() throws -> Bool {
                            try sway.run("pgrep", ["-u", user.name, "-x", "menud-popup"]).status == 0
                        }
                        let (pointer, keyboard) = try await Self.seat(sway)
                        // The pointer rests in the bottom right corner, which the popup's
                        // frames leave out: a click moves it.
                        try pointer.move(x: sway.width - 1, y: sway.height - 1)
                        let empty = try sway.frame()
                        let bar = try Self.startWaybar(sway, module: try Self.docsWaybarBlock())
                        let shown = try await sway.waitForFrame("waybar to show the module", drawnBy: bar) {
                            $0.changes(from: empty) != nil
                        }
                        #expect(try user.menuctl(daemon, ["expand", "sound"]).status == 0)
                        #expect(try user.menuctl(daemon, ["focus", "net"]).status == 0)

                        try pointer.click(x: 10, y: Self.barHeight / 2)
                        let open = try await sway.waitForFrame(
                            "the popup to show under the bar", drawnBy: bar
                        ) {
                            $0.changes(from: shown, fromRow: Self.below, columns: 0..<(sway.width - 40))
                                != nil
                        }
                        let box = try #require(
                            open.changes(from: shown, fromRow: Self.below, columns: 0..<(sway.width - 40))
                        )
                        #expect(try running())

                        try keyboard.tap(Self.right)
                        try await waitUntil("Right to open net") {
                            try user.menuctl(daemon, ["--raw", "get", "net"]).stdout.contains("\texpanded\t")
                        }
                        try keyboard.tap(Self.down)
                        try await waitUntil("Down to focus net/wifi") {
                            try user.menuctl(daemon, ["--raw", "focused"]).stdout.contains("\tnet/wifi")
                        }
                        try await sway.waitForFrame("the popup to draw Network open", drawnBy: bar) {
                            ($0.changes(from: shown, fromRow: Self.below, columns: 0..<(sway.width - 40))?
                                .maxY ?? 0) > box.maxY
                        }
                        try sway.screenshot("popup-waybar")

                        try pointer.click(x: 10, y: Self.barHeight / 2)
                        try await waitUntil("the second click to close the popup") { try !running() }
                        try await sway.waitForFrame("the popup to go", drawnBy: bar) {
                            $0.changes(from: shown, fromRow: Self.below, columns: 0..<(sway.width - 40))
                                == nil
                        }
                        #expect(
                            try user.menuctl(daemon, ["--raw", "get", "net/wifi"]).stdout.contains("\ton"))
                    }
                }
            }
        }
    }

    /// wayvnc's pointer and keyboard for the seat, the keyboard not repeating (a
    /// loaded machine can hold a key down long enough to repeat).
    static func seat(_ sway: SwaySession) async throws -> (TrayPointer, VNCKeyboard) {
        let pointer = try await TrayPointer(sway)
        let repeatOff = try sway.run("swaymsg", ["input type:keyboard repeat_rate 0"])
        #expect(repeatOff.status == 0, "\(repeatOff)")
        return (pointer, try VNCKeyboard(socketPath: pointer.socketPath))
    }

    static let barHeight = 30
    /// The rows the popup is looked for in: under the bar, and under the pointer that
    /// clicked it (whose cursor ends 24 rows below the click).
    static let below = barHeight + 20

    static let barMenu = """
        menu:
          - id: net
            title: Network
            icon: network-wireless
            children:
              - {id: wifi, title: "Wi-Fi", type: toggle, value: on, key: w}
              - {id: vpn, title: VPN, type: toggle, value: off, key: v}
          - id: sound
            title: Sound
            icon: audio-volume-high
            children:
              - {id: volume, title: Volume, type: range, min: 0, max: 100, step: 5, value: 60}
              - id: output
                title: Output
                type: choice
                options: [Speakers, Headphones, HDMI]
                value: Speakers
          - {id: lock, title: Lock screen, icon: system-lock-screen, exec: "true"}
        """

    /// The waybar block of docs/integrations.md, as a user would paste it.
    static func docsWaybarBlock() throws -> String {
        let docs = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/integrations.md"), encoding: .utf8)
        guard let block = docs.firstMatch(of: #/```jsonc\n(// waybar[^`]*)```/#) else {
            throw TimedOut(description: "no waybar block in docs/integrations.md")
        }
        return String(block.1)
    }

    /// A waybar at the top of the output with `module` (a `"custom/menu": {…}` entry)
    /// on its left.
    static func startWaybar(_ sway: SwaySession, module: String) throws -> BackgroundProcess {
        let config = """
            {
                "layer": "top",
                "position": "top",
                "height": \(barHeight),
                "modules-left": ["custom/menu"],
            \(module)
            }
            """
        let style = """
            * { font-family: "DejaVu Sans"; font-size: 13px; }
            window#waybar { background: #282a36; color: #f8f8f2; }
            #custom-menu { padding: 0 12px; }
            """
        try config.write(toFile: sway.directory.file("waybar.jsonc"), atomically: true, encoding: .utf8)
        try style.write(toFile: sway.directory.file("waybar.css"), atomically: true, encoding: .utf8)
        return try sway.start(
            "waybar",
            ["--config", sway.directory.file("waybar.jsonc"), "--style", sway.directory.file("waybar.css")])
    }
}
