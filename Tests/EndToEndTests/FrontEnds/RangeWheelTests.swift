import Foundation
import TestSupport
import Testing

/// The bars' wheel on a focused range (docs/integrations.md): polybar steps it with
/// the wheel over the focused row itself, waybar's contrib module and the i3blocks
/// script with the horizontal wheel. Each action is run as its bar runs it, against
/// Fixtures/ranges.yaml; the real polybar is wheeled in ``polybarWheelOverTheFocusedRangeStepsIt()``.
@Suite(.ownThread) struct RangeWheelTests {
    private func withRangesDaemon(_ body: (TestDaemon) async throws -> Void) async throws {
        try await withDaemon(config: TestPaths.fixture("ranges.yaml"), body)
    }

    private func volume(_ daemon: TestDaemon) throws -> String {
        let get = try daemon.menuctl(["--raw", "get", "display/volume"]).stdout
        let fields = get.trimmingCharacters(in: .newlines).split(
            separator: "\t", omittingEmptySubsequences: false)
        return fields.count > 7 ? String(fields[7]) : get
    }

    /// The environment a bar's command runs in: this build's menuctl first on PATH,
    /// and the daemon's socket.
    private func environment(_ daemon: TestDaemon) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MENUD_SOCKET"] = daemon.socketPath
        environment["PATH"] = TestPaths.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// The polybar action of `button` that encloses `text` most closely, as polybar
    /// reads it (the innermost wins), unescaped to the command polybar runs.
    static func polybarAction(_ line: String, button: Int, around text: String) -> String? {
        guard let at = line.range(of: text) else { return nil }
        var open: [(button: Int, command: String)] = []
        var rest = line[..<at.lowerBound]
        while let tag = rest.range(of: "%{A") {
            let after = rest[tag.upperBound...]
            if after.hasPrefix("}") {
                open.removeLast()
                rest = after.dropFirst()
                continue
            }
            guard let digit = after.first?.wholeNumberValue else { return nil }
            var command = ""
            var i = after.index(after: after.index(after: after.startIndex))  // past "N:"
            while i < after.endIndex, !after[i...].hasPrefix(":}") {
                if after[i...].hasPrefix("\\:") {
                    command.append(":")
                    i = after.index(i, offsetBy: 2)
                } else {
                    command.append(after[i])
                    i = after.index(after: i)
                }
            }
            open.append((digit, command))
            rest = after[after.index(i, offsetBy: 2)...]
        }
        return open.last { $0.button == button }?.command
    }

    /// Over the focused range the wheel steps it; over the rest it still moves the
    /// focus; and a range that is not focused keeps the module's wheel.
    @Test func polybarStepsTheFocusedRangeUnderTheWheel() async throws {
        try await withRangesDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "display/volume"]).status == 0)
            let line = try rendered(daemon, ["--format", "polybar"])
            let up = try #require(Self.polybarAction(line, button: 4, around: "Volume: 40%%"), "\(line)")
            let down = try #require(Self.polybarAction(line, button: 5, around: "Volume: 40%%"), "\(line)")
            // The whole menu is rendered: the moves name no menu, and act on the current one.
            #expect(up.hasSuffix(" nav increase >/dev/null"), "\(up)")
            #expect(down.hasSuffix(" nav decrease >/dev/null"), "\(down)")
            // Only the focused range has them: over Brightness the wheel moves the focus.
            #expect(line.components(separatedBy: "nav increase").count == 2, "\(line)")
            #expect(
                Self.polybarAction(line, button: 5, around: "Brightness: 70%%")?.hasSuffix(
                    " nav next >/dev/null")
                    == true, "\(line)")

            for (command, expected) in [(up, "45"), (up, "50"), (down, "45")] {
                let result = try run("/bin/sh", ["-c", command])
                #expect(result.status == 0 && result.stdout.isEmpty, "\(command): \(result)")
                #expect(try volume(daemon) == expected)
            }

            // With the focus elsewhere, no row steps.
            #expect(try daemon.menuctl(["focus", "display/mute"]).status == 0)
            let moved = try rendered(daemon, ["--format", "polybar"])
            #expect(!moved.contains("nav increase") && !moved.contains("nav decrease"), "\(moved)")
        }
    }

    @Test func waybarContribHorizontalWheelStepsTheFocusedRange() async throws {
        let contrib = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("contrib/waybar/config.jsonc"),
            encoding: .utf8)
        let json = contrib.split(separator: "\n").filter { !$0.hasPrefix("//") }.joined(separator: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(("{" + json + "}").utf8)) as? [String: Any]
        let module = try #require(object?["custom/menud"] as? [String: Any], "\(contrib)")
        // The contrib module shows the Settings menu; here the same commands act on Display.
        let commands = try ["on-scroll-right", "on-scroll-left"].map { key in
            try #require(module[key] as? String, "\(key) in \(contrib)").replacing(
                " settings ", with: " display ")
        }
        try await withRangesDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "display/volume"]).status == 0)
            for (command, expected) in [(commands[0], "45"), (commands[1], "40"), (commands[1], "35")] {
                let result = try run("/bin/sh", ["-c", command], environment: environment(daemon))
                #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result)")
                #expect(result.stdout.isEmpty, "\(command) printed into waybar's output: \(result.stdout)")
                #expect(try volume(daemon) == expected, "after \(command)")
            }
            // On another row the horizontal wheel does nothing.
            #expect(try daemon.menuctl(["focus", "display/mute"]).status == 0)
            _ = try run("/bin/sh", ["-c", commands[0]], environment: environment(daemon))
            #expect(try daemon.menuctl(["--raw", "get", "display/mute"]).stdout.contains("\toff\t"))
        }
    }

    @Test func i3blocksScriptHorizontalWheelStepsTheFocusedRange() async throws {
        let script = TestPaths.packageRoot.appendingPathComponent("contrib/i3blocks/menud").path
        try await withRangesDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "display/volume"]).status == 0)
            for (button, expected) in [("7", "45"), ("7", "50"), ("6", "45")] {
                var environment = environment(daemon)
                environment["BLOCK_BUTTON"] = button
                let result = try run("/bin/sh", [script], environment: environment)
                #expect(result.status == 0, "button \(button): \(result)")
                // Only render's three lines reach i3blocks, the new value among them.
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(
                    lines.count == 4 && lines[1] == "Volume: \(expected)%",
                    "button \(button): \(result.stdout)")
                #expect(try volume(daemon) == expected, "after button \(button)")
            }
        }
    }

    /// A real polybar: the wheel over the focused Volume row steps it, and over the
    /// Display row it moves the focus as before.
    @Test(.enabled(if: XTools.shouldRun(PolybarTests.programs)))
    func polybarWheelOverTheFocusedRangeStepsIt() async throws {
        try XTools.require(PolybarTests.programs)
        try await withRangesDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "display/volume"]).status == 0)
            try await withPolybar(daemon) { x, module in
                try await waitUntil("the module to show the focused volume; log: \(module.bar.log)") {
                    module.text.contains("%{R}Volume: 40%%{O0}%{R}")
                }
                // The bar's font is 9 px a character after one character of padding:
                // "▾ Display  " is 11, so Volume's row spans about 108 to 207 px.
                var waited = 0
                while !module.executedCommands.contains(where: { $0.contains(" nav increase") }) {
                    try module.click(x, button: 4, at: [157])
                    _ = try? await waitUntil("the wheel's action", seconds: 10) {
                        module.executedCommands.contains { $0.contains(" nav increase") }
                    }
                    waited += 10
                    guard waited < 120 else {
                        throw TimedOut(
                            description: "polybar never stepped the volume; log: \(module.bar.log)")
                    }
                }
                try await waitUntil("the volume to go up") { try volume(daemon) != "40" }
                let stepped = try volume(daemon)
                #expect(["45", "50", "55"].contains(stepped), "volume \(stepped)")
                #expect(
                    try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tdisplay\tdisplay/volume\n")

                // Over the Display row the wheel is the module's: the focus moves.
                try await waitUntil("the module to show the stepped volume") {
                    module.text.contains("Volume: \(stepped)%%")
                }
                try module.click(x, button: 4, at: [40])
                try await waitUntil("the wheel over Display to move the focus") {
                    try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tdisplay\tdisplay\n"
                }
                #expect(try volume(daemon) == stepped)
            }
        }
    }
}
