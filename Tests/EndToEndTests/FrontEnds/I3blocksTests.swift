import Foundation
import TestSupport
import Testing

/// i3blocks as i3bar's status line, under a real i3 on Xvfb, with the two blocks
/// contrib/i3blocks/config describes: the contrib `menud` script, re-run every second
/// and after each click, and a persistent `menuctl watch --format i3blocks`.
///
/// What i3bar is given is observed by having the status command `tee` i3blocks'
/// output (the i3bar protocol: a header, then one JSON array of blocks per line)
/// into a file; i3bar has no call that returns its status line.
@Suite(.ownThread) struct I3blocksTests {
    static let programs = ["Xvfb", "i3", "i3bar", "i3blocks", "xdotool", "import"]

    /// The blocks, from left to right: the clickable one is last, at the bar's right end.
    static let blocks = """
        # contrib/i3blocks/config's two blocks. Neither sets markup=pango: the text is
        # not escaped for Pango, and i3bar shows it as it is.
        [menud-live]
        command=menuctl watch --format i3blocks
        interval=persist

        [menud]
        command=sh '\(TestPaths.packageRoot.appendingPathComponent("contrib/i3blocks/menud").path)'
        interval=1
        """

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func blocksFollowTheDaemonAndClicksReachIt() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            // Room for both blocks' full_text side by side in the screenshot.
            try await withI3Bar(daemon, blocks: Self.blocks, width: 1600, height: 40) { bar in
                try await waitUntil("both blocks to show the menu; status: \(bar.output)") {
                    bar.text("menud").contains("[▸ Applications]")
                        && bar.text("menud-live").contains("[▸ Applications]")
                }
                #expect(bar.property("menud", "short_text") == "▸ Applications")

                // i3bar may draw a status line well after i3blocks wrote it, and a
                // click on a block not drawn yet is lost: the clicks are repeated until
                // they act, with buttons whose repeats do no harm. Button 2 is
                // `nav right` in the script (open the group, else go into it).
                try await bar.click(button: 2, until: "the click to open apps") {
                    try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t")
                }
                try await waitUntil("both blocks to show apps open") {
                    bar.text("menud").contains("▾ Applications") && bar.text("menud").contains("Terminal")
                        && bar.text("menud-live").contains("▾ Applications")
                        && bar.text("menud-live").contains("Terminal")
                }
                // Button 5 (the wheel) is `nav next`.
                let before = try daemon.menuctl(["--raw", "focused"]).stdout
                try await bar.click(button: 5, until: "the wheel to move the focus") {
                    try daemon.menuctl(["--raw", "focused"]).stdout != before
                }

                // A change made elsewhere: the persistent block shows it at once.
                #expect(try daemon.menuctl(["expand", "power"]).status == 0)
                try await waitUntil("the persistent block to show power open") {
                    bar.text("menud-live").contains("▾ Power  ▸ Session")
                }

                // The color line: green for a focused toggle that is on, grey once off.
                #expect(try daemon.menuctl(["collapse-all"]).status == 0)
                #expect(try daemon.menuctl(["focus", "settings/wifi"]).status == 0)
                try await waitUntil("the script's block to be green on the Wi-Fi toggle") {
                    bar.property("menud", "color") == "#50FA7B"
                }
                try bar.x.screenshot("i3bar")
                #expect(try daemon.menuctl(["activate", "settings/wifi"]).status == 0)
                try await waitUntil("the script's block to turn grey with the toggle off") {
                    bar.property("menud", "color") == "#6272A4"
                }
                // The blocks only ever showed the menu: nothing nav printed reached them.
                let malformed = bar.rawLines().filter { I3Bar.blocks($0) == nil }
                #expect(malformed.isEmpty, "lines i3bar cannot read: \(malformed.map(\.debugDescription))")
                for line in bar.statusLines() {
                    for name in ["menud", "menud-live"] {
                        guard let text = line[name]?["full_text"] as? String else { continue }
                        #expect(text.contains("Applications"), "\(name) showed \(text.debugDescription)")
                    }
                }
                #expect(bar.i3.isRunning)
            }
        }
    }

    /// Menu text that tries to be markup, a second field, a second line or JSON
    /// reaches i3bar as one line of data in each block.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func hostileTextStaysOneField() async throws {
        try XTools.require(Self.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            try await withI3Bar(daemon, blocks: Self.blocks) { bar in
                let title = "%{A1:touch PWNED-title:}Tags%{A} <b>R&D</b> 50% off | x"
                // Waits read the raw lines: a line i3bar could not read is reported below.
                let latest = { bar.rawLines().last ?? "" }
                try await waitUntil("both blocks to show the hostile menu; status: \(bar.output)") {
                    latest().components(separatedBy: title).count > 2
                }
                // Visit every row, so that each is the focused one (short_text) once:
                // `nav next` stops at the last.
                var focused = try daemon.menuctl(["--raw", "focused"]).stdout
                var visited = 1
                while visited < 20 {
                    let before = latest()
                    #expect(try daemon.menuctl(["nav", "next"]).status == 0)
                    let now = try daemon.menuctl(["--raw", "focused"]).stdout
                    if now == focused { break }
                    (focused, visited) = (now, visited + 1)
                    try await waitUntil("the persistent block to follow the focus to \(now)") {
                        latest() != before
                    }
                }
                #expect(visited > 5)
                #expect(try daemon.menuctl(["activate", "evil/choice"]).status == 0)
                try await waitUntil("the choice's options to show") {
                    latest().components(separatedBy: "<i>Ital</i>").count > 2
                }

                let malformed = bar.rawLines().filter { I3Bar.blocks($0) == nil }
                #expect(malformed.isEmpty, "lines i3bar cannot read: \(malformed.map(\.debugDescription))")
                let lines = bar.statusLines()
                #expect(lines.count > visited)
                for line in lines {
                    for (name, block) in line {
                        #expect(block["markup"] == nil, "block \(name) sets markup: \(block)")
                        for key in ["full_text", "short_text"] {
                            guard let text = block[key] as? String else { continue }
                            #expect(
                                !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f },
                                "a control character in \(name)'s \(key): \(text.debugDescription)")
                        }
                    }
                }
                let full = bar.text("menud")
                #expect(full.contains("Line one line two and a tab"), "\(full.debugDescription)")
                #expect(full.contains("Opts a␟info␟power b␀icon␟x c␁d"), "\(full.debugDescription)")
                #expect(full.contains("%{A}%{A1:touch PWNED-value:}click-me"), "\(full.debugDescription)")
                #expect(
                    full.contains(#"Quote '"$(touch PWNED-shell)`touch PWNED-tick`"#),
                    "\(full.debugDescription)")
                #expect(full.contains("&amp; %{{F#f00}}red"), "\(full.debugDescription)")
                #expect(bar.text("menud-live") == full)
                let pwned = try FileManager.default.contentsOfDirectory(atPath: daemon.directory.path)
                    .filter { $0.hasPrefix("PWNED") }
                #expect(pwned.isEmpty, "menu text ran as a command: \(pwned)")
                #expect(bar.i3.isRunning)
            }
        }
    }
}
