import Foundation
import TestSupport
import Testing

/// A real waybar in a headless sway whose module is contrib/waybar/config.jsonc's
/// `custom/menud`, with its command showing the whole menu and `tee`ing what waybar
/// reads into a file (as PolybarTests does): waybar has no IPC call that returns a
/// module's text, while the file holds exactly the lines waybar was given, one per
/// state. waybar's own log shows whether it could take them as Pango markup.
///
/// sway refuses root, so all of it (and the menud the module talks to, which answers
/// only its own user) runs as a user made for the test.
@Suite(.ownThread) struct WaybarTests {
    static let programs = SwaySession.programs + ["waybar"]

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func moduleFollowsTheDaemon() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await user.withDaemon { daemon in
                try await withSwaySession(user: user) { sway in
                    let bar = try WaybarModule(sway, daemon)
                    try await bar.waitForLine("waybar to show the menu") {
                        $0.text.contains("<b>▸ Applications</b>") && $0.text.contains("▾ Settings")
                    }
                    let first = try bar.line()

                    #expect(try user.menuctl(daemon, ["expand", "apps"]).status == 0)
                    try await bar.waitForLine("the module to show apps open") {
                        $0.text.contains("<b>▾ Applications</b>") && $0.text.contains("Terminal")
                    }
                    #expect(try bar.line().text != first.text)
                    #expect(try bar.line().classes.contains("expanded"))
                    // waybar itself: the focused row's class reaches its style.
                    try await sway.waitForFrame(
                        "waybar to draw the expanded class's colour", drawnBy: bar.process
                    ) {
                        $0.shows([Style.expanded], rows: 30)
                    }

                    // While menud is away the module says so; a menud started on the
                    // same socket is found again by the same watch.
                    await daemon.stop()
                    try await bar.waitForLine("the module to show menud gone") {
                        $0.classes == ["disconnected"] && $0.text == "menud: not running"
                    }
                    try await sway.waitForFrame(
                        "waybar to draw the disconnected class's colour", drawnBy: bar.process
                    ) {
                        $0.shows([Style.disconnected], not: [Style.expanded], rows: 30)
                    }
                    try await Self.withRestarted(daemon, as: user) { _ in
                        try await bar.waitForLine("the module to show the menu again") {
                            !$0.classes.contains("disconnected") && $0.text.contains("▾ Applications")
                        }
                        try await sway.waitForFrame(
                            "waybar to draw the menu's colours again", drawnBy: bar.process
                        ) {
                            $0.shows([Style.expanded], not: [Style.disconnected], rows: 30)
                        }
                        #expect(bar.process.isRunning, "waybar log: \(bar.process.log)")
                        bar.expectNoMarkupErrors()
                        try sway.screenshot("waybar")
                    }
                }
            }
        }
    }

    /// Menu text full of markup, control characters and newlines reaches waybar as
    /// text: the line parses, no `<` from the menu is left raw, and waybar takes the
    /// text and the tooltip as markup without a complaint.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func hostileTextStaysText() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await user.withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
                try await withSwaySession(user: user) { sway in
                    let bar = try WaybarModule(sway, daemon)
                    try await bar.waitForLine("waybar to show the hostile menu") { $0.text.contains("Plain") }
                    var frame = try await sway.waitForFrame(
                        "waybar to draw the focused group's colour", drawnBy: bar.process
                    ) { $0.shows([Style.expanded], rows: 30) }
                    // waybar sets its label from the latest line when it gets round to
                    // it: a line that came meanwhile would never be tried. So each
                    // state is waited for on the screen (a label that fails keeps the
                    // old text) before the next: a row with markup of its own, then one
                    // with control characters.
                    for (path, focused) in [("evil/lines", "<b>Line one"), ("evil/options", "<b>Opts a")] {
                        #expect(try user.menuctl(daemon, ["nav", "next"]).status == 0)
                        try await bar.waitForLine("the focus on \(path)") { $0.text.contains(focused) }
                        let previous = frame
                        frame = try await sway.waitForFrame(
                            "waybar to draw the focus on \(path)", drawnBy: bar.process
                        ) {
                            $0 != previous
                        }
                    }

                    for line in try bar.lines() {
                        let markup = line.text.replacingOccurrences(of: "<b>", with: "")
                            .replacingOccurrences(of: "</b>", with: "")
                        #expect(!markup.contains("<"), "raw < from menu text: \(line.raw)")
                        #expect(
                            !(line.text + line.tooltip).unicodeScalars.contains {
                                $0.value < 0x20 && $0 != "\n" || $0.value == 0x7f
                            }, "a control character reached waybar: \(line.raw)")
                        #expect(line.text.contains("&lt;b&gt;R&amp;D&lt;/b&gt;"), "\(line.raw)")
                    }
                    #expect(bar.process.isRunning, "waybar log: \(bar.process.log)")
                    bar.expectNoMarkupErrors()
                }
            }
        }
    }

    /// contrib's click and wheel commands, run as waybar runs them (`sh -c`, with
    /// waybar's own output, hence the redirections), move the focus, activate it, and
    /// print nothing. The headless sway has no pointer (no input device, and no
    /// virtual pointer client here), so waybar itself is not clicked.
    @Test func contribClickCommandsActQuietly() async throws {
        let contrib = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("contrib/waybar/config.jsonc"),
            encoding: .utf8)
        let json = contrib.split(separator: "\n").filter { !$0.hasPrefix("//") }.joined(separator: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(("{" + json + "}").utf8)) as? [String: Any]
        let module = try #require(object?["custom/menud"] as? [String: Any], "\(contrib)")
        #expect(module["return-type"] as? String == "json")
        #expect(module["max-length"] is Int)
        try await withDaemon { daemon in
            var environment = ProcessInfo.processInfo.environment
            environment["MENUD_SOCKET"] = daemon.socketPath
            environment["PATH"] =
                TestPaths.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let focus = {
                let render = try daemon.menuctl(["render", "--format", "waybar", "settings"])
                let line = try JSONSerialization.jsonObject(with: Data(render.stdout.utf8)) as? [String: Any]
                return line?["alt"] as? String ?? render.stdout
            }
            for (key, expected) in [
                ("on-scroll-down", "settings/wifi"), ("on-click-right", "settings"),
                ("on-click-middle", "settings/wifi"), ("on-click", "settings/wifi"),
                ("on-scroll-up", "settings"),
            ] {
                let command = try #require(module[key] as? String, "\(key) in \(contrib)")
                let result = try run("/bin/sh", ["-c", command], environment: environment)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(key): \(result)")
                #expect(result.stdout.isEmpty, "\(key) printed into waybar's output: \(result.stdout)")
                #expect(try focus() == expected, "after \(key)")
            }
            let wifi = try daemon.menuctl(["render", "--format", "waybar", "settings"]).stdout
            #expect(wifi.contains("Wi-Fi: off"), "on-click did not activate the Wi-Fi toggle: \(wifi)")
        }
    }

    /// Runs `body` with a new menud as `user`, serving `config` on the socket and
    /// files of `daemon` (stopped), and stops it however `body` ends.
    static func withRestarted<T>(
        _ daemon: TestDaemon, config: String = TestPaths.fixture("menu.yaml"), as user: TestUser,
        _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        let again = try user.daemon(
            directory: daemon.directory, config: config, socketPath: daemon.socketPath)
        return try await again.whileRunning(body)
    }
}

/// Colours of contrib/waybar/style.css.
private enum Style {
    static let expanded: (UInt8, UInt8, UInt8) = (0x8b, 0xe9, 0xfd)
    static let disconnected: (UInt8, UInt8, UInt8) = (0xff, 0x55, 0x55)
}

/// A waybar in `sway` with contrib's `custom/menud` module, its `exec` showing the
/// whole menu of `daemon` through `tee`.
struct WaybarModule {
    let process: BackgroundProcess
    let output: String

    /// One line waybar was given.
    struct Line {
        var raw: String
        var text: String
        var tooltip: String
        var classes: [String]
    }

    init(_ sway: SwaySession, _ daemon: TestDaemon) throws {
        output = sway.directory.file("module.txt")
        let command = "menuctl --socket \(daemon.socketPath) watch --format waybar | tee \(output)"
        let contrib = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("contrib/waybar/config.jsonc"),
            encoding: .utf8)
        let exec = #/"exec": "[^"]*"/#
        guard contrib.contains(exec) else {
            throw TimedOut(description: "no exec in contrib/waybar/config.jsonc")
        }
        let module = contrib.replacing(exec, with: "\"exec\": \"\(command)\"")
        let config = """
            {
                "layer": "top",
                "position": "top",
                "height": 30,
                "modules-center": ["custom/menud"],
            \(module)
            }
            """
        let style =
            try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("contrib/waybar/style.css"),
                encoding: .utf8)
                + """
                * { font-family: "DejaVu Sans Mono"; font-size: 13px; }
                window#waybar { background: #282a36; color: #f8f8f2; }
                """
        try config.write(toFile: sway.directory.file("waybar.jsonc"), atomically: true, encoding: .utf8)
        try style.write(toFile: sway.directory.file("waybar.css"), atomically: true, encoding: .utf8)
        process = try sway.start(
            "waybar",
            ["--config", sway.directory.file("waybar.jsonc"), "--style", sway.directory.file("waybar.css")])
    }

    func lines() throws -> [Line] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { raw in
            guard let object = try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any] else {
                throw TimedOut(description: "not a JSON object: \(raw)")
            }
            return Line(
                raw: String(raw), text: object["text"] as? String ?? "",
                tooltip: object["tooltip"] as? String ?? "",
                classes: object["class"] as? [String] ?? (object["class"] as? String).map { [$0] } ?? [])
        }
    }

    /// The latest state: the last line waybar was given.
    func line() throws -> Line {
        guard let last = try lines().last else { throw TimedOut(description: "waybar was given no line yet") }
        return last
    }

    /// Waits until the latest line satisfies `condition`.
    func waitForLine(_ what: String, _ condition: (Line) -> Bool) async throws {
        try await process.waitWhileRunning(what, state: "lines: \((try? lines().map(\.raw)) ?? [])") {
            (try? line()).map(condition) ?? false
        }
    }

    /// GTK warns (and shows nothing) when a label's markup does not parse.
    func expectNoMarkupErrors() {
        let complaints = process.log.split(separator: "\n").filter {
            $0.contains("markup") || $0.contains("Pango") || $0.contains("[error]")
        }
        #expect(complaints.isEmpty, "waybar log: \(process.log)")
    }
}
