import Foundation
import TestSupport
import Testing

/// `menuctl rofi --search` and `--at` through the real rofi under Xvfb: a query typed
/// and Return list what `find` answers, hidden nodes too, with their groups' titles;
/// Return again takes the best, which acts as if its groups had been opened.
@Suite(.serialized, .ownThread) struct RofiSearchTests {
    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func hiddenNodesAreFoundAndActedOn() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon { daemon in
            _ = try daemon.menuctl(["collapse", "settings"])
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon, options: "--search")
                try x.type("wifi")
                try x.screenshot("rofi-search")
                try x.type("")
                try await x.waitForRofi("rofi to flip settings/wifi", rofi, daemon) {
                    try daemon.value(of: "settings/wifi") == "off"
                }
                #expect(try daemon.menuctl(["--raw", "get", "settings"]).stdout.contains("\texpanded\t"))
                #expect(rofi.isRunning, "flipping a toggle keeps rofi open")

                // Back at the accordion, text that is no row is a query: find puts
                // "Power › Session" before "Power › Session › Lock".
                try x.type("session")
                try x.type("")
                try await x.waitForRofi("rofi to open power/session", rofi, daemon) {
                    try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t")
                }
                #expect(rofi.isRunning, "opening a group keeps rofi open")
                _ = try daemon.menuctl(["collapse", "power"])

                // A query may be a path.
                try x.type("apps/term")
                try x.type("")
                try await x.waitForRofi("apps/term's command to run", rofi, daemon) {
                    daemon.directory.contains("activated")
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
                #expect(try daemon.focusedPath() == "apps/term")
            }
        }
    }

    /// A hidden title holding rofi's row option separators, markup and `$(…)`, with
    /// its group's hostile title before it, is still one row of text that acts on its
    /// own node: an item runs, an option is picked.
    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func hostileHiddenTitlesStayData() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            _ = try daemon.menuctl(["collapse", "evil"])
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon, options: "--search")
                try x.type("Opts a")
                try x.screenshot("rofi-search-hostile")
                try x.type("")
                try await x.waitForRofi("rofi to run evil/options", rofi, daemon) {
                    try daemon.focusedPath() == "evil/options" && daemon.log.contains("activate evil/options")
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
                #expect(!rofi.log.contains("Pango"), "rofi log: \(rofi.log)")

                _ = try daemon.menuctl(["collapse", "evil"])
                let again = try await x.startRofi(daemon, options: "--search")
                try x.type("Quote")
                try x.type("")
                try await x.waitForRofi("rofi to run evil/quote", again, daemon) {
                    try daemon.focusedPath() == "evil/quote" && daemon.log.contains("activate evil/quote")
                }
                try await waitUntil("rofi to close after running an item") { !again.isRunning }

                // A hidden option whose title is markup and a bar's tag is picked, and
                // rofi stays open on the list; then a hidden item runs.
                _ = try daemon.menuctl(["collapse", "evil"])
                let third = try await x.startRofi(daemon, options: "--search")
                try x.type("}}red")
                try x.type("")
                try await x.waitForRofi("rofi to pick evil/choice/amp", third, daemon) {
                    try daemon.value(of: "evil/choice") == "amp"
                }
                #expect(third.isRunning, "picking an option keeps rofi open")
                try x.type("Harmless")
                try x.type("")
                try await x.waitForRofi("rofi to run plain/ok", third, daemon) {
                    daemon.log.contains("activate plain/ok")
                }
                try await waitUntil("rofi to close after running an item") { !third.isRunning }
                #expect(!third.log.contains("Pango"), "rofi log: \(third.log)")
                try expectNothingInjected(in: daemon.directory)
            }
        }
    }

    /// --at opens the accordion at a node: its groups and itself open, and focused.
    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func atStartsAtANode() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon, options: "--at power/session")
                #expect(
                    try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t"))
                #expect(try daemon.menuctl(["--raw", "get", "power"]).stdout.contains("\texpanded\t"))
                #expect(try daemon.focusedPath() == "power/session")
                try x.screenshot("rofi-at")
                // Lock shows without anything opened by hand.
                try x.type("Lock")
                try await x.waitForRofi("rofi to run power/session/lock", rofi, daemon) {
                    try daemon.focusedPath() == "power/session/lock"
                        && daemon.log.contains("activate power/session/lock")
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
            }
        }
    }
}
