import Foundation
import MenuCore
import TestSupport
import Testing

/// `menuctl rofi` driven through the real rofi under Xvfb with xdotool.
@Suite(.serialized, .ownThread) struct RofiTests {
    static let programs = ["Xvfb", "rofi", "xdotool", "import"]

    /// An item with `confirm:` asks in rofi: choosing it shows the question with Yes
    /// and No under it, rofi stays open, No runs nothing and Yes runs the command.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aConfirmationAsksInRofi() async throws {
        try XTools.require(Self.programs)
        try await withDaemon(config: TestPaths.fixture("confirm.yaml")) { daemon in
            try await withXSession { x in
                for answer in ["No", "Yes"] {
                    let rofi = try await x.startRofi(daemon)
                    try x.type("Shut down")
                    try await waitUntil("rofi to open the question; rofi log: \(rofi.log)") {
                        try daemon.menuctl(["--raw", "get", "power/shutdown"]).stdout.contains("\texpanded\t")
                    }
                    #expect(rofi.isRunning, "opening the question keeps rofi open")
                    if answer == "Yes" { try x.screenshot("rofi-confirm") }
                    try x.type(answer)
                    try await waitUntil("rofi to close after \(answer)") { !rofi.isRunning }
                    try await daemon.expectShutDownAnswered(yes: answer == "Yes")
                }
            }
        }
    }

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
                try await waitUntil("apps/term's command to run") {
                    daemon.directory.contains("activated")
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
            }
        }
    }
}
