import Foundation
import TestSupport
import Testing

/// Menu text in a real openbox stays text. Through hostile-menus.yaml, whose titles
/// close the XML's attributes and elements to add entries, pipe menus (which openbox
/// runs when the pointer rests on them) and commands of their own, every entry is
/// pointed at and clicked: each runs only its own node's command, each menu has the
/// entries the menu has, and no command from the text ran.
@Suite(.serialized, .ownThread) struct OpenboxHostileTextTests {
    @Test(.enabled(if: XTools.shouldRun(OpenboxDesktop.programs)))
    func everyEntryRunsOnlyItsOwnNode() async throws {
        try XTools.require(OpenboxDesktop.programs)
        let planted = try TempDirectory()
        try await withDaemon(config: try hostileMenusConfig(in: planted)) { daemon in
            try await withXSession { x in
                let desktop = try await OpenboxDesktop.start(x, daemon)
                for (k, entry) in HostileChoice.all.enumerated() {
                    try await desktop.choose(entry.route, counts: entry.counts) { windows in
                        guard k == 0 else { return }
                        try x.screenshot("openbox-hostile")
                        // "Access _q" would make q choose that entry, and close the menu
                        // before the click on this one. With the pointer on this entry,
                        // its menu takes the key.
                        let first = windows[1].entries[0]
                        // The server takes the move before the key.
                        _ = try x.run("xdotool", ["mousemove", String(first.x), String(first.y), "key", "q"])
                    }
                    try await entry.choice.wait(daemon, desktop)
                }
                try expectNothingInjected(in: planted)
                #expect(!desktop.log.contains("pipe-menu"), "openbox log: \(desktop.log)")
            }
        }
    }
}
