import Foundation
import TestSupport
import Testing

/// `menuctl pick` through the real dmenu under Xvfb, typed at with xdotool, with the
/// launcher line contrib/fuzzel/README.md gives. dmenu prints the highlighted row on
/// Return, which is how a group, a choice and an option are picked here, and the
/// typed text on Shift+Return, which is how a value is given.
@Suite(.ownThread) struct DmenuTests {
    static let programs = ["Xvfb", "dmenu", "xdotool", "import"]

    private static let launcher = #"dmenu -i -l 20 -p "$MENUCTL_PROMPT""#

    /// A dmenu the pick started, by pid, with its command line.
    private struct Dmenu: Hashable {
        let pid: pid_t
        let arguments: [String]
    }

    /// Waits for a dmenu of `pick` other than those in `old` to show its window, and
    /// returns it. ``XSession/waitForWindow(class:from:other:)`` cannot tell dmenu's
    /// windows apart: dmenu sets no _NET_WM_PID, and X hands each new one the id of the
    /// one before. The pick's launchers are told apart by pid instead: each descends
    /// from the pick (in a process group of its own), and starts only after the one
    /// before it has exited.
    private func waitForDmenu(_ x: XSession, of pick: BackgroundProcess, other old: Set<Dmenu> = [])
        async throws -> Dmenu
    {
        var found: Dmenu?
        try await waitUntil("a new dmenu of \(pick.name) on \(x.display); its log: \(pick.log)") {
            let running = Self.dmenus(of: pick.pid).subtracting(old)
            guard let new = running.first else {
                guard pick.isRunning else {
                    throw TimedOut(
                        description: "\(pick.name) \(pick.ending) before dmenu showed; log: \(pick.log)")
                }
                return false
            }
            // dmenu grabs the keyboard before it maps its window: once shown, it gets what is typed.
            guard try x.run("xdotool", ["search", "--onlyvisible", "--class", "dmenu"]).status == 0 else {
                return false
            }
            found = new
            return true
        }
        return try #require(found)
    }

    private static func dmenus(of pick: pid_t) -> Set<Dmenu> {
        Set(
            livingDescendants(of: pick).compactMap { process -> Dmenu? in
                guard process.name == "dmenu",
                    let cmdline = try? String(contentsOfFile: "/proc/\(process.pid)/cmdline", encoding: .utf8)
                else { return nil }
                return Dmenu(pid: process.pid, arguments: cmdline.split(separator: "\0").map(String.init))
            })
    }

    private func startPick(_ x: XSession, _ daemon: TestDaemon, search: Bool = false) throws
        -> BackgroundProcess
    {
        try x.start(
            TestPaths.menuctl, ["pick"] + (search ? ["--search"] : []) + ["--launcher", Self.launcher],
            environment: x.environment(daemon))
    }

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func groupOptionAndValue() async throws {
        try XTools.require(Self.programs)
        // The built-in example (without its sources): its display/volume is a range.
        let example = TestPaths.fixture("example-static.yaml")
        try await withDaemon(config: example) { daemon in
            try await withXSession { x in
                let pick = try startPick(x, daemon)
                var shown: Set = [try await waitForDmenu(x, of: pick)]
                // -i: typed in lower case, as a user would.
                try x.type("sett")
                try await waitUntil("pick to open settings; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "settings"]).stdout.contains("\texpanded\t")
                }
                shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                try x.type("theme")
                try await waitUntil("pick to open the theme's options; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "settings/appearance/theme"]).stdout.contains(
                        "\texpanded\t")
                }
                shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                try x.screenshot("dmenu")
                try x.type("light")
                try await waitUntil("pick to end after choosing Light; log: \(pick.log)") { !pick.isRunning }
                #expect(pick.exitStatus == 0, "\(pick.log)")
                #expect(
                    try daemon.menuctl(["--raw", "get", "settings/appearance/theme"]).stdout.contains(
                        "\tLight\t"))

                let setValue = try startPick(x, daemon)
                shown.insert(try await waitForDmenu(x, of: setValue))
                try x.type("displ")
                try await waitUntil("pick to open display; log: \(setValue.log)") {
                    try daemon.menuctl(["--raw", "get", "display"]).stdout.contains("\texpanded\t")
                }
                shown.insert(try await waitForDmenu(x, of: setValue, other: shown))
                try x.type("volu")
                // The value page: its one row is the current value, 40.
                shown.insert(try await waitForDmenu(x, of: setValue, other: shown))
                // Return would print the highlighted row whenever the typed text matches
                // it ("4" matches "40"); Shift+Return prints what was typed.
                try x.type("65", thenReturn: false)
                _ = try x.run("xdotool", ["key", "shift+Return"])
                try await waitUntil("pick to end after setting the volume; log: \(setValue.log)") {
                    !setValue.isRunning
                }
                #expect(setValue.exitStatus == 0, "\(setValue.log)")
                #expect(try daemon.menuctl(["--raw", "get", "display/volume"]).stdout.contains("\t65\t"))
            }
        }
    }

    /// An item with `confirm:` asks in dmenu too: choosing it shows the question with
    /// Yes and No under it, No runs nothing and Yes runs the command.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aConfirmationAsksBeforeRunning() async throws {
        try XTools.require(Self.programs)
        try await withDaemon(config: TestPaths.fixture("confirm.yaml")) { daemon in
            try await withXSession { x in
                var shown: Set<Dmenu> = []
                for answer in ["no", "yes"] {
                    let pick = try startPick(x, daemon)
                    shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                    try x.type("shut")
                    try await waitUntil("pick to open the question; log: \(pick.log)") {
                        try daemon.menuctl(["--raw", "get", "power/shutdown"]).stdout.contains("\texpanded\t")
                    }
                    shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                    let rows = try daemon.menuctl(["rows", "power/shutdown"]).stdout
                    #expect(rows == "  ▾ Really shut down?\n      Yes\n      No\n", "\(rows)")
                    if answer == "yes" { try x.screenshot("dmenu-confirm") }
                    try x.type(answer)
                    try await waitUntil("pick to end after \(answer); log: \(pick.log)") { !pick.isRunning }
                    #expect(pick.exitStatus == 0, "\(pick.log)")
                    try await daemon.expectShutDownAnswered(yes: answer == "yes")
                }
            }
        }
    }

    /// dmenu prints the typed text when no row matches it: pick shows the rows again
    /// rather than taking that for a cancel, and Escape then cancels.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func unmatchedTextAsksAgainAndEscapeCancels() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let pick = try startPick(x, daemon)
                let first = try await waitForDmenu(x, of: pick)
                let before = try daemon.menuctl(["render", "--format", "json"]).stdout
                try x.type("zzz")
                let again = try await waitForDmenu(x, of: pick, other: [first])
                #expect(try daemon.menuctl(["render", "--format", "json"]).stdout == before)
                // The prompt says why the rows came back.
                #expect(
                    again.arguments.contains("no row matches 'zzz'"), "dmenu's arguments: \(again.arguments)")
                _ = try x.run("xdotool", ["key", "Escape"])
                try await waitUntil("pick to end after Escape") { !pick.isRunning }
                #expect(pick.exitStatus == 1, "\(pick.log)")
                #expect(pick.log.contains("cancelled"), "\(pick.log)")
            }
        }
    }

    /// Rows whose titles hold a newline, a tab, NUL, `\x1f` and control characters are
    /// each one dmenu row: moving down the list reaches the rows in menu order, and
    /// each is printed back whole. A newline would have made two rows of one, so that
    /// the third row would have been the second's tail.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func hostileTitlesAreOneRowEach() async throws {
        try XTools.require(Self.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            try await withXSession { x in
                // Rows: evil, evil/lines, evil/options, …; both are items, which end pick.
                for (downs, path) in [(1, "evil/lines"), (2, "evil/options")] {
                    let pick = try startPick(x, daemon)
                    _ = try await waitForDmenu(x, of: pick)
                    _ = try x.run("xdotool", ["key"] + Array(repeating: "Down", count: downs) + ["Return"])
                    try await waitUntil("pick to end after choosing \(path); log: \(pick.log)") {
                        !pick.isRunning
                    }
                    #expect(pick.exitStatus == 0, "\(pick.log)")
                    #expect(try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tevil\t\(path)\n")
                }
                let pwned = try FileManager.default.contentsOfDirectory(atPath: daemon.directory.path)
                    .filter { $0.hasPrefix("PWNED") }
                #expect(pwned.isEmpty, "menu text ran as a command: \(pwned)")
            }
        }
    }

    /// pick --search through dmenu, typed at as a user would: the query at the first
    /// dmenu, then Return at the next takes find's best answer, which acts on its
    /// node. An item runs, a toggle flips ("wi-fi" and "wifi" both find Wi-Fi), a
    /// group opens and the accordion goes on there.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func searchRunsFlipsAndOpens() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                var shown: Set<Dmenu> = []
                let run = try startPick(x, daemon, search: true)
                shown.insert(try await waitForDmenu(x, of: run, other: shown))
                try x.type("termi")
                shown.insert(try await waitForDmenu(x, of: run, other: shown))
                try x.screenshot("dmenu-search")
                try x.type("")
                try await waitUntil("apps/term's command to run; log: \(run.log)") {
                    daemon.directory.contains("activated")
                }
                try await waitUntil("pick to end after running Terminal") { !run.isRunning }
                #expect(run.exitStatus == 0, "\(run.log)")
                #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t"))

                for (typed, value) in [("wi-fi", "off"), ("wifi", "on")] {
                    let flip = try startPick(x, daemon, search: true)
                    shown.insert(try await waitForDmenu(x, of: flip, other: shown))
                    try x.type(typed)
                    shown.insert(try await waitForDmenu(x, of: flip, other: shown))
                    try x.type("")
                    try await waitUntil("pick to end after '\(typed)'; log: \(flip.log)") { !flip.isRunning }
                    #expect(flip.exitStatus == 0, "\(flip.log)")
                    #expect(try daemon.value(of: "settings/wifi") == value, "after '\(typed)'")
                }

                let open = try startPick(x, daemon, search: true)
                shown.insert(try await waitForDmenu(x, of: open, other: shown))
                // find puts "Power › Session" before "Power › Session › Lock".
                try x.type("session")
                shown.insert(try await waitForDmenu(x, of: open, other: shown))
                try x.type("")
                try await waitUntil("pick to open power/session; log: \(open.log)") {
                    try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t")
                }
                let accordion = try await waitForDmenu(x, of: open, other: shown)
                #expect(accordion.arguments.contains("menu"), "dmenu's arguments: \(accordion.arguments)")
                try x.type("lock")
                try await waitUntil("pick to end after Lock; log: \(open.log)") { !open.isRunning }
                #expect(open.exitStatus == 0, "\(open.log)")
                #expect(try daemon.focusedPath() == "power/session/lock")
            }
        }
    }

    /// The hostile menu through pick --search and dmenu: every answer, its groups'
    /// titles before it, is one line of data. Choosing the line of a title holding
    /// rofi's row options and one holding `$(…)` acts on those nodes, and nothing in
    /// the text runs.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func searchKeepsHostileTitlesData() async throws {
        try XTools.require(Self.programs)
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
            _ = try daemon.menuctl(["collapse", "evil"])
            try await withXSession { x in
                var shown: Set<Dmenu> = []
                for (typed, path) in [
                    ("opts a", "evil/options"), ("quote '", "evil/quote"), ("line one", "evil/lines"),
                ] {
                    let pick = try startPick(x, daemon, search: true)
                    shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                    try x.type(typed)
                    shown.insert(try await waitForDmenu(x, of: pick, other: shown))
                    try x.type("")
                    try await waitUntil("pick to end after choosing \(path); log: \(pick.log)") {
                        !pick.isRunning
                    }
                    #expect(pick.exitStatus == 0, "\(pick.log)")
                    #expect(try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tevil\t\(path)\n")
                    #expect(daemon.log.contains("activate \(path)"), "menud log: \(daemon.log)")
                }
                try expectNothingInjected(in: daemon.directory)
            }
        }
    }
}
