import Foundation
import TestSupport
import Testing

/// contrib/i3/config as a real i3 4.22 reads it (the i3 of ``withI3Bar(_:blocks:width:height:_:)``
/// includes it): its bindings start what they name.
@Suite(.ownThread) struct I3ConfigTests {
    /// contrib/i3/config's $mod+m opens the whole menu in rofi's script mode: with
    /// Debian 12's rofi 1.7.3, whose -modes would show "Mode menu is not found".
    @Test(.enabled(if: XTools.shouldRun(I3blocksTests.programs + ["rofi"])))
    func contribBindingOpensTheMenuInRofi() async throws {
        try XTools.require(I3blocksTests.programs + ["rofi"])
        try await withDaemon { daemon in
            try await withI3Bar(daemon, blocks: I3blocksTests.blocks, height: 600) { bar in
                _ = try bar.x.run("xdotool", ["key", "super+m"])
                try await bar.x.waitForWindow(class: "rofi", from: bar.i3)
                try bar.x.type("Power")
                try await waitUntil("rofi to open power through menuctl rofi") {
                    try daemon.menuctl(["--raw", "get", "power"]).stdout.contains("\texpanded\t")
                }
                _ = try bar.x.run("xdotool", ["key", "Escape"])
                try await waitUntil("rofi to close on Escape") {
                    try bar.x.run("xdotool", ["search", "--onlyvisible", "--class", "rofi"]).status != 0
                }
            }
        }
    }
}
