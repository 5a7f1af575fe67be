import Foundation
import TestSupport
import Testing

/// `menuctl watch --format` and `--template`: render's output again after every
/// change, a focus move alone included, against the real daemon.
@Suite(.ownThread) struct WatchFormatTests {
    @Test func waybarIsOneJSONLinePerChange() async throws {
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon { daemon throws in
            watch = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", "waybar"])
            func next(_ what: String) async throws -> [String: Any] {
                let line = try await watch!.nextLine(what)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(Set(object.keys) == ["text", "alt", "tooltip", "class"])
                return object
            }
            let state = try await next("the state")
            #expect(state["alt"] as? String == "apps")
            #expect(state["class"] as? [String] == ["group", "collapsed"])

            #expect(try daemon.menuctl(["expand", "apps"]).status == 0)
            let expanded = try await next("the state after expand")
            #expect((expanded["text"] as? String)?.hasPrefix("<b>▾ Applications</b>  Terminal") == true)
            #expect(expanded["class"] as? [String] == ["group", "expanded"])

            #expect(try daemon.menuctl(["nav", "next"]).status == 0)
            let moved = try await next("the state after nav next")
            #expect(moved["alt"] as? String == "apps/term")
            #expect((moved["text"] as? String)?.contains("<b>Terminal</b>") == true)
        }
    }

    @Test func treeReRendersOnExpandAndOnAFocusMoveAlone() async throws {
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon { daemon throws in
            watch = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", "tree"])
            #expect(try await watch!.nextState("the state") == (try rendered(daemon, [])).dropLast())
            #expect(try daemon.menuctl(["expand", "apps"]).status == 0)
            #expect(
                try await watch!.nextState("the state after expand").hasPrefix(
                    "> ▾ Applications\n      Terminal\n      Tab here\n  ▾ Settings"))
            // Moves that go nowhere print nothing, so the next state is the real move's.
            #expect(try daemon.menuctl(["nav", "prev"]).status == 0)
            #expect(try daemon.menuctl(["nav", "next"]).status == 0)
            #expect(
                try await watch!.nextState("the state after nav next").hasPrefix(
                    "  ▾ Applications\n>     Terminal\n      Tab here\n"))
        }
    }

    @Test func linesOfASubtree() async throws {
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon { daemon throws in
            watch = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", "lines", "apps"])
            #expect(try await watch!.nextState("the state") == "▸ Applications")
            #expect(try daemon.menuctl(["expand", "apps"]).status == 0)
            #expect(
                try await watch!.nextState("the state after expand") == "▾ Applications\nTerminal\nTab here")
            // A change outside the subtree still prints, the same state again.
            #expect(try daemon.menuctl(["set", "settings/wifi", "off"]).status == 0)
            #expect(
                try await watch!.nextState("the state after set") == "▾ Applications\nTerminal\nTab here")
        }
    }

    @Test func templateFollowsTheFocus() async throws {
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon { daemon throws in
            watch = try WatchProcess(
                socket: daemon.socketPath, arguments: ["--template", "{focused}{path}", "settings"])
            #expect(
                try await watch!.nextState("the state")
                    == "*settings\nsettings/wifi\nsettings/theme\nsettings/hostname")
            #expect(try daemon.menuctl(["focus", "settings/theme"]).status == 0)
            #expect(
                try await watch!.nextState("the state after focus")
                    == "settings\nsettings/wifi\n*settings/theme\nsettings/hostname")
        }
    }

    /// The bars' persistent conventions: i3blocks takes each line as a new full_text,
    /// yambar's script module each tag set ended by an empty line.
    @Test func i3blocksLinesAndYambarTagSets() async throws {
        var i3blocks: WatchProcess?
        var yambar: WatchProcess?
        defer {
            i3blocks?.stop()
            yambar?.stop()
        }
        try await withDaemon { daemon throws in
            i3blocks = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", "i3blocks"])
            yambar = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", "yambar"])
            #expect(try await i3blocks!.nextLine("the state").hasPrefix("[▸ Applications]  ▾ Settings"))
            #expect(try await yambar!.nextState("the state").contains("path|string|apps\n"))
            #expect(try daemon.menuctl(["nav", "next"]).status == 0)
            #expect(
                try await i3blocks!.nextLine("the state after nav").hasPrefix("▸ Applications  [▾ Settings]"))
            #expect(try await yambar!.nextState("the state after nav").contains("path|string|settings\n"))
        }
    }

    /// A deep link (`menuctl open`) to a node in a closed group: every bar that shows
    /// the focus shows it there, the group opened.
    @Test func aDeepLinkMovesEveryBarsFocus() async throws {
        var bars: [String: WatchProcess] = [:]
        defer { for bar in bars.values { bar.stop() } }
        try await withDaemon { daemon throws in
            for format in ["polybar", "waybar", "i3blocks", "yambar"] {
                bars[format] = try WatchProcess(socket: daemon.socketPath, arguments: ["--format", format])
            }
            let polybar = try #require(bars["polybar"])
            let waybar = try #require(bars["waybar"])
            let i3blocks = try #require(bars["i3blocks"])
            let yambar = try #require(bars["yambar"])
            #expect(try await polybar.nextLine("polybar's state").contains("%{R}▸ Applications%{R}"))
            _ = try await waybar.nextLine("waybar's state")
            _ = try await i3blocks.nextLine("i3blocks' state")
            _ = try await yambar.nextState("yambar's state")

            #expect(try daemon.menuctl(["open", "apps/term"]).status == 0)
            let polybarLine = try await polybar.nextLine("polybar after open")
            #expect(polybarLine.contains("%{R}Terminal%{R}"), "\(polybarLine)")
            #expect(!polybarLine.contains("%{R}▸"), "\(polybarLine)")
            let waybarLine = try await waybar.nextLine("waybar after open")
            #expect(waybarLine.contains("\"alt\":\"apps/term\""), "\(waybarLine)")
            #expect(waybarLine.contains("<b>Terminal</b>"), "\(waybarLine)")
            let i3blocksLine = try await i3blocks.nextLine("i3blocks after open")
            #expect(i3blocksLine.hasPrefix("▾ Applications  [Terminal]"), "\(i3blocksLine)")
            #expect(try await yambar.nextState("yambar after open").contains("path|string|apps/term\n"))
        }
    }

    @Test func jsonWithAFormatIsAUsageError() async throws {
        try await withDaemon { daemon throws in
            let result = try daemon.menuctl(["--json", "watch", "--format", "tree"])
            #expect(result.status == 2 && result.stderr.contains("--format json"), "\(result)")
        }
    }
}
