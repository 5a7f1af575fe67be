import Foundation
import TestSupport
import Testing

/// `menuctl nav key KEY` against the real daemon serving the fixture, and the keys
/// that `menuctl rofi` shows: each row's access key, field 16 of its row record.
@Suite(.ownThread) struct NavKeyTests {
    @Test func navKeyFlipsAToggleOpensAGroupAndSaysWhenNoChildHasTheKey() async throws {
        try await withDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "settings"]).status == 0)
            // Wi-Fi's key is w: a toggle flips.
            let flipped = try daemon.menuctl(["--raw", "nav", "key", "W"])
            #expect(flipped.status == 0, "\(flipped)")
            #expect(flipped.stdout.contains("activated\tsettings/wifi\tflipped\n"), "\(flipped.stdout)")
            #expect(try daemon.value(of: "settings/wifi") == "off")
            // Focus on Wi-Fi, an item: its siblings' keys count. Theme opens.
            #expect(try daemon.menuctl(["nav", "key", "t"]).status == 0)
            #expect(try daemon.focusedPath() == "settings/theme")
            #expect(try daemon.menuctl(["--raw", "get", "settings/theme"]).stdout.contains("\texpanded\t"))
            // A group closed inside a closed group: both open, and the focus follows.
            #expect(try daemon.menuctl(["focus", "power"]).status == 0)
            #expect(try daemon.menuctl(["nav", "key", "s"]).status == 0)
            #expect(try daemon.focusedPath() == "power/session")
            #expect(try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t"))

            let missing = try daemon.menuctl(["nav", "key", "x"])
            #expect(missing.status == 1)
            #expect(
                missing.stderr.contains("no child of 'power/session' has the key 'x'"), "\(missing.stderr)")
            #expect(try daemon.menuctl(["nav", "key"]).status == 2)
            let invalid = try daemon.menuctl(["nav", "key", "ab"])
            #expect(invalid.status == 2 && invalid.stderr.contains("'ab' is not a key"), "\(invalid.stderr)")
        }
    }

    @Test func rowsCarryTheKeyAndRofiShowsIt() async throws {
        try await withDaemon { daemon throws in
            let fields = try daemon.menuctl(["--raw", "get", "apps/tabbed"]).stdout
                .trimmingCharacters(in: .newlines).split(separator: "\t", omittingEmptySubsequences: false)
            // Terminal took t; Tab\there has a.
            #expect(fields.count == 16 && fields[15] == "a", "\(fields)")

            var environment = ProcessInfo.processInfo.environment
            environment["ROFI_RETV"] = "0"
            let page = try run(
                TestPaths.menuctl, ["--socket", daemon.socketPath, "rofi"], environment: environment)
            #expect(page.status == 0, "\(page)")
            let rows = page.stdout.split(separator: "\n").map {
                $0.split(separator: "\0").first.map(String.init) ?? ""
            }
            #expect(rows.contains("▸ [a] Applications"), "\(rows)")
            #expect(rows.contains("▾ [s] Settings"), "\(rows)")
            #expect(rows.contains("    [w] Wi-Fi: on"), "\(rows)")
        }
    }
}
