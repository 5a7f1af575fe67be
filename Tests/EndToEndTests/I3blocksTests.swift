import Foundation
import Testing

/// i3blocks as i3bar's status line, under a real i3 on Xvfb, with the two blocks
/// contrib/i3blocks/config describes: the contrib `menud` script, re-run every second
/// and after each click, and a persistent `menuctl watch --format i3blocks`.
///
/// What i3bar is given is observed by having the status command `tee` i3blocks'
/// output (the i3bar protocol: a header, then one JSON array of blocks per line)
/// into a file; i3bar has no call that returns its status line.
@Suite struct I3blocksTests {
    static let programs = ["Xvfb", "i3", "i3bar", "i3blocks", "xdotool", "import"]

    /// The blocks, from left to right: the clickable one is last, at the bar's right end.
    private static let blocks = """
        # contrib/i3blocks/config's two blocks. Neither sets markup=pango: the text is
        # not escaped for Pango, and i3bar shows it as it is.
        [menud-live]
        command=menuctl watch --format i3blocks
        interval=persist

        [menud]
        command=sh '\(TestPaths.packageRoot.appendingPathComponent("contrib/i3blocks/menud").path)'
        interval=1
        """

    /// A running i3 with its bar, and the status lines i3blocks gave it.
    private struct Bar {
        let x: XSession
        let i3: BackgroundProcess
        let output: String

        /// Every status line i3bar was given so far: after the header and "[[]", one
        /// ",[...]" per update.
        func rawLines() -> [String] {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").dropFirst(2).map(String.init)
        }

        /// A status line's blocks by name, or nil when it is no JSON array of blocks
        /// (i3bar would reject it too).
        static func blocks(_ line: String) -> [String: [String: Any]]? {
            let array = line.hasPrefix(",") ? line.dropFirst() : Substring(line)
            guard let blocks = try? JSONSerialization.jsonObject(with: Data(array.utf8)) as? [[String: Any]]
            else { return nil }
            var byName: [String: [String: Any]] = [:]
            for block in blocks { if let name = block["name"] as? String { byName[name] = block } }
            return byName
        }

        func statusLines() -> [[String: [String: Any]]] { rawLines().compactMap(Self.blocks) }

        /// A block's full_text in the latest status line.
        func text(_ block: String) -> String {
            statusLines().last?[block]?["full_text"] as? String ?? ""
        }

        func property(_ block: String, _ key: String) -> String? {
            statusLines().last?[block]?[key] as? String
        }
    }

    /// Runs `body` with i3 on a fresh X session, its bar's status command being i3blocks
    /// with ``blocks``, the blocks' menuctl talking to `daemon`.
    /// contrib/i3/config is included, so its bindings are checked as i3 reads them.
    private func withBar(
        _ daemon: TestDaemon, width: Int = 1024, height: Int = 120, _ body: (Bar) async throws -> Void
    )
        async throws
    {
        // i3bar leads a session of its own and ends its status command's process group
        // when it exits; should it not, that group is ended here. i3blocks writes its pid.
        let blocksPID = daemon.directory.file("i3blocks.pid")
        defer {
            if let text = try? String(contentsOfFile: blocksPID, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "i3blocks\n"
            {
                let group = getpgid(pid)
                if group > 1 { kill(-group, SIGTERM) }
            }
        }
        try await withXSession(width: width, height: height) { x in
            let output = x.directory.file("status.txt")
            // i3blocks ignores a last line without its newline.
            try (Self.blocks + "\n").write(
                toFile: x.directory.file("blocks.conf"), atomically: true, encoding: .utf8)
            let config = """
                # i3 config file (v4)
                font pango:DejaVu Sans Mono 11
                set $mod Mod4
                include '\(TestPaths.packageRoot.appendingPathComponent("contrib/i3/config").path)'
                bar {
                    position top
                    tray_output none
                    status_command exec sh -c 'echo $$ > "\(blocksPID)"; exec i3blocks -c "\(x.directory.file("blocks.conf"))"' | tee '\(output)'
                }
                """
            try config.write(toFile: x.directory.file("i3.conf"), atomically: true, encoding: .utf8)
            var environment = x.environment(daemon)
            // Where rofi, started by a binding, keeps its pid file: one instance per file.
            environment["XDG_RUNTIME_DIR"] = x.directory.path
            let i3 = try x.start("i3", ["-c", x.directory.file("i3.conf")], environment: environment)
            let bar = Bar(x: x, i3: i3, output: output)
            try await x.waitForWindow(class: "i3bar", from: i3)
            do {
                try await body(bar)
            } catch {
                Issue.record("the last status lines: \(bar.rawLines().suffix(2)); i3's log: \(i3.log)")
                throw error
            }
            #expect(i3.isRunning, "i3's log: \(i3.log)")
            #expect(!i3.log.contains("CONFIG:"), "i3 found errors in its config: \(i3.log)")
        }
    }

    /// Clicks `button` near the right end of the bar, on the last block.
    private func click(_ bar: Bar, button: Int) throws {
        let search = try bar.x.run("xdotool", ["search", "--onlyvisible", "--class", "i3bar"])
        let window = try #require(search.stdout.split(separator: "\n").first.map(String.init), "\(search)")
        let geometry = try bar.x.run("xdotool", ["getwindowgeometry", "--shell", window]).stdout
        var values: [String: Int] = [:]
        for line in geometry.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int(pair[1]) { values[String(pair[0])] = value }
        }
        let (left, top) = (try #require(values["X"]), try #require(values["Y"]))
        let (width, height) = (try #require(values["WIDTH"]), try #require(values["HEIGHT"]))
        let result = try bar.x.run(
            "xdotool", ["mousemove", "\(left + width - 10)", "\(top + height / 2)", "click", "\(button)"])
        #expect(result.status == 0, "\(result)")
    }

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func blocksFollowTheDaemonAndClicksReachIt() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            // Room for both blocks' full_text side by side in the screenshot.
            try await withBar(daemon, width: 1600, height: 40) { bar in
                try await waitUntil("both blocks to show the menu; status: \(bar.output)") {
                    bar.text("menud").contains("[▸ Applications]")
                        && bar.text("menud-live").contains("[▸ Applications]")
                }
                #expect(bar.property("menud", "short_text") == "▸ Applications")

                // Button 1 is `nav activate` in the script: the focused group opens.
                try click(bar, button: 1)
                try await waitUntil("the click to open apps") {
                    try daemon.menuctl(["get", "apps"]).stdout.contains("\texpanded\t")
                }
                try await waitUntil("both blocks to show apps open") {
                    bar.text("menud").contains("[▾ Applications]  Terminal")
                        && bar.text("menud-live").contains("[▾ Applications]  Terminal")
                }
                // Button 5 (the wheel) is `nav next`.
                try click(bar, button: 5)
                try await waitUntil("the wheel to move the focus to apps/term") {
                    try daemon.menuctl(["focused"]).stdout == "focus\tapps\tapps/term\n"
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
                let malformed = bar.rawLines().filter { Bar.blocks($0) == nil }
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
            try await withBar(daemon) { bar in
                let title = "%{A1:touch PWNED-title:}Tags%{A} <b>R&D</b> 50% off | x"
                // Waits read the raw lines: a line i3bar could not read is reported below.
                let latest = { bar.rawLines().last ?? "" }
                try await waitUntil("both blocks to show the hostile menu; status: \(bar.output)") {
                    latest().components(separatedBy: title).count > 2
                }
                // Visit every row, so that each is the focused one (short_text) once:
                // `nav next` stops at the last.
                var focused = try daemon.menuctl(["focused"]).stdout
                var visited = 1
                while visited < 20 {
                    let before = latest()
                    #expect(try daemon.menuctl(["nav", "next"]).status == 0)
                    let now = try daemon.menuctl(["focused"]).stdout
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

                let malformed = bar.rawLines().filter { Bar.blocks($0) == nil }
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

    /// contrib/i3/config's $mod+m opens the whole menu in rofi's script mode: with
    /// Debian 12's rofi 1.7.3, whose -modes would show "Mode menu is not found".
    @Test(.enabled(if: XTools.shouldRun(programs + ["rofi"])))
    func contribBindingOpensTheMenuInRofi() async throws {
        try XTools.require(Self.programs + ["rofi"])
        try await withDaemon { daemon in
            try await withBar(daemon, height: 600) { bar in
                _ = try bar.x.run("xdotool", ["key", "super+m"])
                try await bar.x.waitForWindow(class: "rofi", from: bar.i3)
                try bar.x.type("Power")
                try await waitUntil("rofi to open power through menuctl rofi") {
                    try daemon.menuctl(["get", "power"]).stdout.contains("\texpanded\t")
                }
                _ = try bar.x.run("xdotool", ["key", "Escape"])
                try await waitUntil("rofi to close on Escape") {
                    try bar.x.run("xdotool", ["search", "--onlyvisible", "--class", "rofi"]).status != 0
                }
            }
        }
    }
}
