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
                        let pointer = try await TrayPointer(sway)
                        let repeatOff = try sway.run("swaymsg", ["input type:keyboard repeat_rate 0"])
                        #expect(repeatOff.status == 0, "\(repeatOff)")
                        let keyboard = try VNCKeyboard(socketPath: pointer.socketPath)
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
}
