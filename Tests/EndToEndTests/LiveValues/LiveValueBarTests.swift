import Foundation
import TestSupport
import Testing

/// A value changed by the "system" (Fixtures/system.yaml's event files) reaches the
/// real bars through their modules, with no client touching the menu.
@Suite(.ownThread) struct LiveValueBarTests {
    private static func append(_ line: String, to file: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The system's files, written before the daemon starts.
    private static func prepare(_ directory: TempDirectory) throws {
        try "40\n".write(toFile: directory.file("volume"), atomically: true, encoding: .utf8)
        for file in ["wifi-events", "output-events", "limited-events", "flicker-events"] {
            try "".write(toFile: directory.file(file), atomically: true, encoding: .utf8)
        }
    }

    @Test(.enabled(if: XTools.shouldRun(PolybarTests.programs)))
    func polybarShowsAValueTheSystemChanged() async throws {
        try XTools.require(PolybarTests.programs)
        let directory = try TempDirectory()
        try Self.prepare(directory)
        try await withDaemon(config: TestPaths.fixture("system.yaml"), directory: directory) { daemon in
            try await withPolybar(daemon) { x, module in
                try await waitUntil("the module to show the menu; log: \(module.bar.log)") {
                    module.text.contains("Wi-Fi: off")
                }
                try Self.append("on", to: directory.file("wifi-events"))
                try await waitUntil("the bar to show Wi-Fi on; module: \(module.text)") {
                    module.text.contains("Wi-Fi: on")
                }
                try Self.append("off", to: directory.file("wifi-events"))
                try await waitUntil("the bar to show Wi-Fi off again") { module.text.contains("Wi-Fi: off") }
                #expect(!directory.contains("wifi-hook"), "a value from the system runs no on-change")
                #expect(module.bar.isRunning, "polybar log: \(module.bar.log)")
                try x.screenshot("polybar-live-value")
            }
        }
    }

    @Test(.enabled(if: XTools.shouldRun(WaybarTests.programs)))
    func waybarShowsAValueTheSystemChanged() async throws {
        try XTools.require(WaybarTests.programs)
        try await withTestUser { user in
            try await user.withDaemon(config: TestPaths.fixture("system.yaml")) { daemon in
                let events = daemon.directory.file("wifi-events")
                try await waitUntil("the listener to make its file") {
                    daemon.directory.contains("wifi-events")
                }
                try await withSwaySession(user: user) { sway in
                    let bar = try WaybarModule(sway, daemon)
                    try await bar.waitForLine("waybar to show the menu") { $0.text.contains("Wi-Fi: off") }
                    // Not read yet: the focused row's classes say so.
                    #expect(try user.menuctl(daemon, ["focus", "wifi"]).status == 0)
                    try await bar.waitForLine("the stale class") { $0.classes == ["toggle", "off", "stale"] }
                    try Self.append("on", to: events)
                    try await bar.waitForLine("waybar to show Wi-Fi on") {
                        $0.text.contains("Wi-Fi: on") && $0.classes == ["toggle", "on"]
                    }
                    #expect(bar.process.isRunning, "waybar log: \(bar.process.log)")
                    bar.expectNoMarkupErrors()
                    try sway.screenshot("waybar-live-value")
                }
            }
        }
    }
}
