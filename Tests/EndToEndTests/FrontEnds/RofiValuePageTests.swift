import Foundation
import TestSupport
import Testing

/// A range or text node's value page in the real rofi: its first row keeps the value,
/// and its message is shown as text and goes with the page.
@Suite(.serialized, .ownThread) struct RofiValuePageTests {
    static let example = TestPaths.fixture("example-static.yaml")

    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func enterOnAPageThatJustOpenedKeepsTheValue() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon(config: Self.example) { daemon in
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon)
                try x.type("Display")
                try await waitUntil("rofi to open display; rofi log: \(rofi.log)") {
                    try daemon.menuctl(["--raw", "get", "display"]).stdout.contains("\texpanded\t")
                }
                // Enter as the page opens, like a second press of a key held too long:
                // keys queue in X, and rofi reads the next once it has shown the page.
                try x.type("Volume")
                _ = try x.run("xdotool", ["key", "Return"])
                // rofi reads keys in order: once Brightness's page is open, it has
                // taken that Enter.
                try x.type("Brightness")
                try await waitUntil("rofi to open Brightness's page; rofi log: \(rofi.log)") {
                    try daemon.focusedPath() == "display/brightness"
                }
                #expect(try daemon.value(of: "display/volume") == "40")

                _ = try x.run("xdotool", ["key", "Return"])
                try x.type("Volume")
                try x.type("60")
                try await waitUntil("rofi to set the volume to 60; rofi log: \(rofi.log)") {
                    try daemon.value(of: "display/volume") == "60"
                }
                #expect(try daemon.value(of: "display/brightness") == "70")
                #expect(rofi.isRunning, "setting a value brings the list back")
            }
        }
    }

    /// rofi reads a message as Pango markup, and keeps the last one it was given until
    /// a page sends another.
    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func messageIsTextAndGoesWithThePage() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon { daemon in
            #expect(try daemon.menuctl(["set", "settings/hostname", "R&D <3"]).status == 0)
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon)
                let listHeight = try x.rofiHeight()
                try x.type("Hostname")
                try await waitUntil("rofi to show Hostname's page and its message; rofi log: \(rofi.log)") {
                    try x.rofiHeight() > listHeight
                }
                try x.screenshot("rofi-value-message")
                try x.type("renamed")
                try await waitUntil("rofi to set the hostname; rofi log: \(rofi.log)") {
                    try daemon.value(of: "settings/hostname") == "renamed"
                }
                // What rofi (through Pango) says of markup it cannot read, such as
                // "pango_layout_set_markup_with_accel: Error on line 1: Entity did not end with a semicolon".
                #expect(!rofi.log.contains("Pango"), "rofi log: \(rofi.log)")
                try await waitUntil("the message to go with the value page; rofi log: \(rofi.log)") {
                    try x.rofiHeight() == listHeight
                }
                #expect(rofi.isRunning, "setting a value brings the list back")
            }
        }
    }
}
