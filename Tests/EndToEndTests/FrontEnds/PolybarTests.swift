import Foundation
import TestSupport
import Testing

/// A real polybar under Xvfb following the daemon through its module
/// (``withPolybar(_:screenWidth:_:)``).
@Suite(.ownThread) struct PolybarTests {
    static let programs = ["Xvfb", "polybar", "xdotool", "import"]

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func moduleFollowsTheDaemon() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withPolybar(daemon) { x, module in
                try await waitUntil("the module to show the menu; log: \(module.bar.log)") {
                    module.text.contains("%{R}▸ Applications%{R}")
                }
                let first = module.text

                #expect(try daemon.menuctl(["expand", "apps"]).status == 0)
                #expect(try daemon.menuctl(["nav", "next"]).status == 0)
                try await waitUntil("the module to show apps open and the focus on apps/term") {
                    module.text.contains("▾ Applications%{A}  %{A1:")
                        && module.text.contains("%{R}Terminal%{R}")
                }
                #expect(module.text != first)
                #expect(module.bar.isRunning, "polybar log: \(module.bar.log)")
                try x.screenshot("polybar")
            }
        }
    }
}
