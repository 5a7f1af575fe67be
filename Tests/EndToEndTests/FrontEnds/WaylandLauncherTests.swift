import Foundation
import TestSupport
import Testing

/// `menuctl pick` through the real Wayland launchers (fuzzel, wofi, bemenu, tofi) in a
/// headless sway, each with the command line contrib/fuzzel/README.md gives, typed at
/// through wayvnc's keyboard (``WaylandPicks``). sway refuses root, so the session,
/// menud and the picks run as a user made for the test (see ``WaybarTests``). Every
/// outcome is read from menud with menuctl, never from the launcher.
@Suite(.ownThread) struct WaylandLauncherTests {
    static let programs = SwaySession.programs + TrayPointer.programs + WaylandLauncher.all.map(\.program)

    /// The menu's state as menud has it: every node with its value and expansion,
    /// and the focus.
    private static func state(_ user: TestUser, _ daemon: TestDaemon) throws -> String {
        try user.menuctl(daemon, ["--raw", "tree"]).stdout
            + user.menuctl(daemon, ["--raw", "focused"]).stdout
    }

    /// One session per launcher, four picks in it: a walk into a group, a value
    /// typed, a search for a hidden node, and text that matches nothing.
    @Test(.enabled(if: XTools.shouldRun(programs)), arguments: WaylandLauncher.all)
    func pickWalksSetsSearchesAndMisses(_ launcher: WaylandLauncher) async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 1280, height: 720) { sway in
                try await user.withDaemon(config: TestPaths.fixture("launchers.yaml")) { daemon in
                    let picks = try await WaylandPicks(sway, daemon, launcher)
                    #expect(
                        try launcher.tableForm() == picks.form,
                        "\(WaylandLauncher.integrations) and \(WaylandLauncher.readme) give the same line")
                    try await Self.walkIntoAGroup(picks, user)
                    try await Self.setAValue(picks, user)
                    try await Self.searchAHiddenNode(picks, user)
                    try await Self.textThatMatchesNothing(picks, user)
                }
            }
        }
    }

    /// Network opens, the list comes back with its rows, and the toggle chosen in it
    /// flips and ends the pick.
    private static func walkIntoAGroup(_ picks: WaylandPicks, _ user: TestUser) async throws {
        let daemon = picks.daemon
        func get(_ path: String) throws -> String { try user.menuctl(daemon, ["--raw", "get", path]).stdout }
        let pick = try picks.start()
        var shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("Netw")
        try await picks.enter(shown)
        shown = try await picks.waitForLauncher(of: pick)
        #expect(try get("network").contains("\texpanded\t"), "choosing Network opened it")
        let rows = try user.menuctl(daemon, ["rows"]).stdout
        #expect(rows.contains("Bluetooth: off") && rows.contains("VPN: off"), "\(rows)")
        // One launcher's picture is enough for the docs.
        if picks.launcher.program == "fuzzel" { try picks.screenshot("pick-fuzzel") }
        try await picks.type("Blue")
        try await picks.enter(shown)
        try await waitUntil("pick to end after Bluetooth; its log: \(pick.log)") { !pick.isRunning }
        #expect(pick.exitStatus == 0, "\(pick.log)")
        #expect(try get("network/bluetooth").contains("\ton\t"))
        #expect(try get("network/vpn").contains("\toff\t"))
    }

    /// Brightness asks for its value, showing the current one; what is typed is set.
    private static func setAValue(_ picks: WaylandPicks, _ user: TestUser) async throws {
        let pick = try picks.start()
        var shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("Bright")
        try await picks.enter(shown)
        // The value prompt: its one line is the current value, 40.
        shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("65")
        try await picks.enter(shown)
        try await waitUntil("pick to end after the value; its log: \(pick.log)") { !pick.isRunning }
        #expect(pick.exitStatus == 0, "\(pick.log)")
        let brightness = try user.menuctl(picks.daemon, ["--raw", "get", "display/brightness"]).stdout
        #expect(brightness.contains("\t65\t"), "\(brightness)")
    }

    /// pick --search asks what to look for: "Autolock", two closed groups deep, is
    /// find's best answer, and Return on it opens its groups and flips it.
    private static func searchAHiddenNode(_ picks: WaylandPicks, _ user: TestUser) async throws {
        let daemon = picks.daemon
        func get(_ path: String) throws -> String { try user.menuctl(daemon, ["--raw", "get", path]).stdout }
        #expect(try get("power").contains("\tcollapsed\t"))
        let pick = try picks.start(search: true)
        var shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("autolock")
        try await picks.enter(shown)
        shown = try await picks.waitForLauncher(of: pick)
        try await picks.enter(shown)
        try await waitUntil("pick to end after Autolock; its log: \(pick.log)") { !pick.isRunning }
        #expect(pick.exitStatus == 0, "\(pick.log)")
        #expect(try get("power/session/autolock").contains("\ton\t"))
        #expect(try get("power").contains("\texpanded\t") && get("power/session").contains("\texpanded\t"))
        let focused = try user.menuctl(daemon, ["--raw", "focused"]).stdout
        #expect(focused.hasSuffix("\tpower/session/autolock\n"), "\(focused)")
    }

    /// pick --search for "hdmi", then `zzz` typed at its answers, which no line
    /// holds: nothing changes, and a `menuctl watch` sees no new state. fuzzel with
    /// `--index` prints -1, which chooses nothing and ends the pick; were it taken for
    /// text, find would take it for HDMI-1 and flip it. The launchers that print text
    /// send `zzz`, which is looked for and matches nothing: the prompt comes back
    /// saying so, and Escape ends the pick.
    private static func textThatMatchesNothing(_ picks: WaylandPicks, _ user: TestUser) async throws {
        let daemon = picks.daemon
        let before = try state(user, daemon)
        let watch = try picks.sway.start(picks.sway.menuctl, ["--socket", daemon.socketPath, "watch"])
        func states() -> [Substring] { watch.log.split(separator: "\n") }
        try await watch.waitWhileRunning("watch to print the menu") { states().count == 1 }

        let pick = try picks.start(search: true)
        var shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("hdmi")
        try await picks.enter(shown)
        shown = try await picks.waitForLauncher(of: pick)
        try await picks.type("zzz")
        try await picks.enter(shown)
        if picks.form.contains("--index") {
            try await waitUntil("pick to end after -1; its log: \(pick.log)") { !pick.isRunning }
        } else {
            shown = try await picks.waitForLauncher(of: pick)
            let arguments =
                (try? String(contentsOfFile: "/proc/\(shown)/cmdline", encoding: .utf8))?.split(
                    separator: "\0"
                )
                .map(String.init) ?? []
            #expect(
                arguments.contains { $0.contains("nothing matches 'zzz'") },
                "the prompt says why the list came back: \(arguments)")
            try await picks.escape(shown)
            try await waitUntil("pick to end after Escape; its log: \(pick.log)") { !pick.isRunning }
        }
        #expect(pick.exitStatus == 1, "\(pick.log)")
        #expect(try state(user, daemon) == before, "nothing changed")

        // The watch is live: a change made now is the next state it prints, so one
        // the pick had made would have come before it.
        let set = try user.menuctl(daemon, ["set", "display/hdmi", "off"])
        #expect(set.status == 0, "\(set)")
        try await watch.waitWhileRunning("watch to print HDMI-1 off", state: "\(states())") {
            states().count >= 2
        }
        #expect(states().count == 2, "\(states())")
        #expect(states().last?.contains("HDMI-1: off") == true, "\(states())")
    }

    /// SIGTERM to a pick whose fuzzel is open ends that fuzzel too, and the next
    /// fuzzel runs (a fuzzel left behind holds the session's fuzzel lock, and the next
    /// one exits "already running?").
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func killingPickEndsItsFuzzel() async throws {
        try XTools.require(Self.programs)
        let fuzzel = WaylandLauncher(program: "fuzzel")
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 1280, height: 720) { sway in
                try await user.withDaemon(config: TestPaths.fixture("launchers.yaml")) { daemon in
                    let picks = try await WaylandPicks(sway, daemon, fuzzel)
                    let before = try Self.state(user, daemon)
                    let killed = try picks.start()
                    let shown = try await picks.waitForLauncher(of: killed)
                    kill(killed.pid, SIGTERM)
                    try await waitUntil("pick to end on SIGTERM") { !killed.isRunning }
                    try await waitUntil(
                        "fuzzel (\(shown)) to end with its pick; \(user.name)'s fuzzels: "
                            + "\(WaylandPicks.processes("fuzzel", of: user))"
                    ) { WaylandPicks.processes("fuzzel", of: user).isEmpty }
                    #expect(try Self.state(user, daemon) == before, "nothing changed")

                    let pick = try picks.start()
                    var again = try await picks.waitForLauncher(of: pick)
                    try await picks.type("Netw")
                    try await picks.enter(again)
                    again = try await picks.waitForLauncher(of: pick)
                    try await picks.type("VPN")
                    try await picks.enter(again)
                    try await waitUntil("pick to end after VPN; its log: \(pick.log)") { !pick.isRunning }
                    #expect(pick.exitStatus == 0, "\(pick.log)")
                    #expect(!pick.log.contains("already running"), "\(pick.log)")
                    #expect(
                        try user.menuctl(daemon, ["--raw", "get", "network/vpn"]).stdout.contains("\ton\t"))
                }
            }
        }
    }
}
