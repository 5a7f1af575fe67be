import Foundation
import MenuCore
import Testing

/// `menuctl rofi` driven through the real rofi under Xvfb with xdotool.
@Suite(.serialized) struct RofiTests {
    static let programs = ["Xvfb", "rofi", "xdotool", "import"]

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func groupOptionAndItemThroughRofi() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon)

                try x.type("Applications")
                try await waitUntil("rofi to open apps; rofi log: \(rofi.log)") {
                    try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t")
                }
                try x.type("Theme")
                try await waitUntil("rofi to open settings/theme") {
                    try daemon.menuctl(["--raw", "get", "settings/theme"]).stdout.contains("\texpanded\t")
                }
                try x.type("Light")
                try await waitUntil("rofi to pick Light") {
                    try daemon.menuctl(["--raw", "get", "settings/theme"]).stdout.contains("\tLight\t")
                }
                #expect(rofi.isRunning, "picking an option keeps rofi open")
                try x.screenshot("rofi")

                try x.type("Terminal")
                let ran = daemon.directory.file("activated")
                try await waitUntil("apps/term's command to run") {
                    FileManager.default.fileExists(atPath: ran)
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
            }
        }
    }
}
