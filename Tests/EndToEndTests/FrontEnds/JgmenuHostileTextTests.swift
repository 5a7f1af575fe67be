import Foundation
import TestSupport
import Testing

/// Menu text in a real jgmenu stays text. Through hostile-menus.yaml, whose titles
/// hold jgmenu's field separator, its quoting, newlines, a widget, caret actions, a
/// file to include, Pango markup and a title longer than a CSV line may be, every
/// entry is pointed at and clicked: each runs only its own node's command, each menu
/// has the entries the menu has, and no command from the text ran.
@Suite(.serialized, .ownThread) struct JgmenuHostileTextTests {
    @Test(.enabled(if: XTools.shouldRun(JgmenuLauncher.programs)))
    func everyEntryRunsOnlyItsOwnNode() async throws {
        try XTools.require(JgmenuLauncher.programs)
        let planted = try TempDirectory()
        try await withDaemon(config: try hostileMenusConfig(in: planted)) { daemon in
            try await withXSession { x in
                let jgmenu = try JgmenuLauncher(x, daemon)
                for (k, entry) in HostileChoice.all.enumerated() {
                    try await jgmenu.choose(entry.route, counts: entry.counts) { _ in
                        if k == 0 { try x.screenshot("jgmenu-hostile") }
                    }
                    try await entry.choice.wait(daemon, jgmenu)
                    // jgmenu warns of what it cannot read (a line too long or not UTF-8,
                    // a quote left open) and skips it or exits.
                    try await waitUntil("jgmenu to exit after a choice", seconds: 60) {
                        jgmenu.process?.isRunning == false
                    }
                    #expect(jgmenu.process?.exitStatus == 0, "jgmenu log: \(jgmenu.log)")
                    #expect(
                        !jgmenu.log.contains("warn") && !jgmenu.log.contains("fatal"),
                        "jgmenu log: \(jgmenu.log)")
                }
                try expectNothingInjected(in: planted)
            }
        }
    }
}
