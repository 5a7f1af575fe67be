import Foundation
import TestSupport
import Testing

/// Menu text in a real polybar stays text. The hostile fixture's titles and a value set
/// to a known attack (`%{A}` closing the row's click action, then an action of its
/// own) are clicked all along the bar, and polybar runs nothing but the rows' actions.
@Suite(.ownThread) struct PolybarHostileTextTests {
    @Test(.enabled(if: XTools.shouldRun(PolybarTests.programs)))
    func clicksAlongTheBarRunOnlyTheRowsActions() async throws {
        try XTools.require(PolybarTests.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            // An absolute path: polybar's commands do not run in the daemon's directory.
            let planted = daemon.directory.file("PWNED-set")
            #expect(
                try daemon.menuctl(["set", "evil/host", "%{A}%{A1:touch \(planted):}click-me"]).status == 0)
            // Wide enough for every row of the hostile menu side by side.
            try await withPolybar(daemon, screenWidth: 2560) { x, module in
                try await waitUntil("the module to show the value; log: \(module.bar.log)") {
                    module.text.contains("click-me")
                }
                // polybar 3.6 draws `%%` as two: what it reads as text must hold one %.
                let shown = HostileTextTests.polybarRead(module.text).text
                #expect(shown.contains("50% off"), "module text: \(module.text)")
                try x.screenshot("polybar-hostile")

                // Every 12 px hits each run of text at least twice (a character of
                // the bar's font is 9 px wide; the shortest hostile action spans 4).
                try module.clickAlong(x, step: 12)
                // The wheel over the first row, after the sweep: polybar handles clicks
                // in order, so once it has run the wheel's action it has run every
                // command the sweep's clicks led to. Should polybar drop the click
                // (it throttles input under load), it is sent again; polybar runs the
                // clicks' commands one after another, each two menuctl processes, so
                // the bound is wide for a sanitizer on a loaded machine.
                var waited = 0
                while true {
                    try module.click(x, button: 5, at: [40])
                    let ran =
                        (try? await waitUntil("the wheel's action", seconds: 10) {
                            module.executedCommands.contains { $0.contains(" nav next") }
                        }) != nil
                    if ran { break }
                    waited += 10
                    guard waited < 240 else {
                        throw TimedOut(
                            description: "polybar never ran the wheel's action; log: \(module.bar.log)")
                    }
                }
                let commands = module.executedCommands
                #expect(
                    commands.contains { $0.contains(" focus evil/") },
                    "the sweep's clicks reached no row; polybar ran: \(commands)")
                let injected = commands.filter { $0.contains("touch") }
                #expect(injected.isEmpty, "polybar ran commands from menu text: \(injected)")
                for directory in [daemon.directory.path, module.directory] {
                    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
                    #expect(!files.contains { $0.hasPrefix("PWNED") }, "in \(directory): \(files)")
                }
                #expect(module.bar.isRunning, "polybar log: \(module.bar.log)")
            }
        }
    }
}
