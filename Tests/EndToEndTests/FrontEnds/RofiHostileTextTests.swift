import Foundation
import TestSupport
import Testing

/// Menu text in the real rofi stays text: the hostile fixture's titles make no markup
/// warning, and a title holding rofi's row option separators (`\0`, `\x1f`) and an
/// `info` of its own is still selected as its own row.
@Suite(.serialized, .ownThread) struct RofiHostileTextTests {
    @Test(.enabled(if: XTools.shouldRun(RofiTests.programs)))
    func titleCannotRedirectItsRow() async throws {
        try XTools.require(RofiTests.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            try await withXSession { x in
                let rofi = try await x.startRofi(daemon)
                try x.screenshot("rofi-hostile")
                // The title is "Opts a\x1finfo\x1fpower b\0icon…": read as row options,
                // it would hand back `power` as the row's path.
                try x.type("Opts a")
                try await waitUntil(
                    "rofi to run evil/options; rofi log: \(rofi.log); menud log: \(daemon.log)"
                ) {
                    try daemon.focusedPath() == "evil/options"
                        && daemon.log.contains("activate evil/options")
                }
                try await waitUntil("rofi to close after running an item") { !rofi.isRunning }
                #expect(!rofi.log.contains("Pango"), "rofi log: \(rofi.log)")
            }
        }
    }
}
