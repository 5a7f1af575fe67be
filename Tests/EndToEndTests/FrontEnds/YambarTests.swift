import Foundation
import TestSupport
import Testing

/// contrib/yambar/config.yml, checked by yambar itself and run by a real yambar in a
/// headless sway as a user made for the test (see ``WaybarTests``). yambar has no IPC
/// to read a module's text: its script's command `tee`s what yambar reads into a
/// file, and yambar's log shows whether it took every tag set.
@Suite(.ownThread) struct YambarTests {
    static let programs = SwaySession.programs + ["yambar"]
    static let contrib = TestPaths.packageRoot.appendingPathComponent("contrib/yambar/config.yml").path

    /// `--validate` loads the whole configuration (particles, conditions, click
    /// buttons) without a display; the Wayland backend, chosen rather than guessed,
    /// tries no X server either.
    @Test(.enabled(if: XTools.shouldRun(["yambar"])))
    func contribConfigValidates() throws {
        try XTools.require(["yambar"])
        let result = try run(
            XTools.path(of: "yambar") ?? "yambar",
            ["--backend=wayland", "--log-no-syslog", "--validate", "--config=\(Self.contrib)"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains(" err:"), "\(result.stderr)")
    }

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func moduleFollowsTheDaemon() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await user.withDaemon { daemon in
                try await withSwaySession(user: user) { sway in
                    let bar = try YambarModule(sway, daemon)
                    try await bar.waitForTags("yambar to show the menu") {
                        $0["text"]?.contains("▸ Applications") == true && $0["path"] == "apps"
                    }

                    #expect(try user.menuctl(daemon, ["expand", "apps"]).status == 0)
                    #expect(try user.menuctl(daemon, ["nav", "next"]).status == 0)
                    try await bar.waitForTags("the module to show apps open, the focus on apps/term") {
                        $0["text"]?.contains("▾ Applications  Terminal") == true && $0["focus"] == "Terminal"
                    }
                    // A deep link moves the bar's focus to where it points.
                    #expect(try user.menuctl(daemon, ["open", "power/session/lock"]).status == 0)
                    try await bar.waitForTags("the focus on power/session/lock after open") {
                        $0["path"] == "power/session/lock" && $0["focus"] == "Lock"
                    }

                    try await sway.waitForFrame("yambar to draw the menu", drawnBy: bar.process) {
                        $0.shows([Colors.text], not: [Colors.away], rows: 26)
                    }

                    // contrib's map draws menud's absence in its own colour.
                    await daemon.stop()
                    try await bar.waitForTags("the module to show menud gone") {
                        $0["state"] == "disconnected" && $0["text"] == "menud: not running"
                    }
                    try await sway.waitForFrame("yambar to draw menud's absence", drawnBy: bar.process) {
                        $0.shows([Colors.away], not: [Colors.text], rows: 26)
                    }
                    try await WaybarTests.withRestarted(daemon, as: user) { _ in
                        try await bar.waitForTags("the module to show the menu again") {
                            $0["state"] != "disconnected" && $0["text"]?.contains("Applications") == true
                        }
                        try await sway.waitForFrame("yambar to draw the menu again", drawnBy: bar.process) {
                            $0.shows([Colors.text], not: [Colors.away], rows: 26)
                        }
                    }
                    bar.expectRunningWithoutErrors()
                }
            }
        }
    }

    /// Newlines and control characters in menu text would end a tag set early or make
    /// a line yambar rejects: every line of every set stays `name|type|value`.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func hostileTextKeepsTagSetsWhole() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await user.withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon in
                try await withSwaySession(user: user) { sway in
                    let bar = try YambarModule(sway, daemon)
                    try await bar.waitForTags("yambar to show the hostile menu") {
                        $0["text"]?.contains("Plain") == true
                    }
                    let first = try await sway.waitForFrame("yambar to draw the menu", drawnBy: bar.process) {
                        $0.shows([Colors.text], rows: 26)
                    }
                    for _ in 0..<2 { #expect(try user.menuctl(daemon, ["nav", "next"]).status == 0) }
                    try await bar.waitForTags("the focus on evil/options") { $0["path"] == "evil/options" }
                    // The text is the same wherever the focus is: a change that shows
                    // (the first row's arrow; the bar ends before the last row) tells
                    // that yambar has read every set before it.
                    #expect(try user.menuctl(daemon, ["collapse", "evil"]).status == 0)
                    try await bar.waitForTags("evil closed") { $0["text"]?.contains("Line one") == false }
                    try await sway.waitForFrame("yambar to draw evil closed", drawnBy: bar.process) {
                        $0 != first
                    }
                    let names: Set = ["text", "focus", "path", "type", "state", "value", "percent"]
                    for set in bar.tagSets() {
                        #expect(Set(set.keys) == names, "\(set)")
                    }
                    bar.expectRunningWithoutErrors()
                }
            }
        }
    }
}

/// Colours of contrib/yambar/config.yml.
private enum Colors {
    static let text: (UInt8, UInt8, UInt8) = (0xf8, 0xf8, 0xf2)
    static let away: (UInt8, UInt8, UInt8) = (0xff, 0x55, 0x55)
}

/// A yambar in `sway` running contrib's configuration, its script showing the menu of
/// `daemon` through `tee`.
private struct YambarModule {
    let process: BackgroundProcess
    let output: String

    init(_ sway: SwaySession, _ daemon: TestDaemon) throws {
        output = sway.directory.file("module.txt")
        let contrib = try String(contentsOfFile: YambarTests.contrib, encoding: .utf8)
        let command = "exec menuctl watch --format yambar"
        guard contrib.contains(command) else {
            throw TimedOut(description: "no '\(command)' in \(YambarTests.contrib)")
        }
        let config = contrib.replacingOccurrences(
            of: command, with: "menuctl --socket \(daemon.socketPath) watch --format yambar | tee \(output)")
        try config.write(toFile: sway.directory.file("yambar.yml"), atomically: true, encoding: .utf8)
        process = try sway.start(
            "yambar",
            ["--backend=wayland", "--log-no-syslog", "--config=\(sway.directory.file("yambar.yml"))"])
    }

    /// Every whole tag set yambar was given (a set ends with an empty line), each as its
    /// tags' values by name; a line that is not `name|type|value` keeps its text as a
    /// name, for a failure to show.
    func tagSets() -> [[String: String]] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var sets = text.components(separatedBy: "\n\n")
        sets.removeLast()  // what follows the last empty line: not a whole set yet
        return sets.map { set in
            var tags: [String: String] = [:]
            for line in set.split(separator: "\n", omittingEmptySubsequences: false) {
                let fields = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
                if fields.count == 3 {
                    tags[String(fields[0])] = String(fields[2])
                } else {
                    tags[String(line)] = ""
                }
            }
            return tags
        }
    }

    /// Waits until the latest tag set satisfies `condition`, failing at once when
    /// yambar has exited. A failure tells the sets and yambar's log as they are then.
    func waitForTags(_ what: String, _ condition: ([String: String]) -> Bool) async throws {
        try await process.waitWhileRunning(what, state: "sets: \(tagSets())") {
            tagSets().last.map(condition) ?? false
        }
    }

    /// yambar logs a tag line it cannot read (and a script that fails) as an error.
    /// The map particle draws once before the script has printed anything, and warns
    /// then that it has no `state` tag: that warning alone is expected.
    func expectRunningWithoutErrors() {
        #expect(process.isRunning, "yambar log: \(process.log)")
        let errors = process.log.split(separator: "\n").filter {
            $0.contains(" err:") || $0.contains("warn:") && !$0.hasSuffix("tag state not found")
        }
        #expect(errors.isEmpty, "yambar log: \(process.log)")
    }
}
