import Foundation
import TestSupport
import Testing

/// A running i3 with its bar, and the status lines i3blocks gave it.
struct I3Bar {
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

    /// Clicks `button` on the last block until `condition` holds, a few times at most:
    /// i3bar draws a status line some time after i3blocks writes it, and a click on a
    /// block that is not drawn yet goes nowhere. For buttons whose repeats do no harm.
    func click(button: Int, until what: String, _ condition: () throws -> Bool) async throws {
        for _ in 0..<10 {
            try click(button: button)
            if (try? await waitUntil(what, seconds: 2, condition)) != nil { return }
        }
        try await waitUntil(what, condition)
    }

    /// Clicks `button` near the right end of the bar, on the last block.
    func click(button: Int) throws {
        let search = try x.run("xdotool", ["search", "--onlyvisible", "--class", "i3bar"])
        let window = try #require(search.stdout.split(separator: "\n").first.map(String.init), "\(search)")
        let geometry = try x.run("xdotool", ["getwindowgeometry", "--shell", window]).stdout
        var values: [String: Int] = [:]
        for line in geometry.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int(pair[1]) { values[String(pair[0])] = value }
        }
        let (left, top) = (try #require(values["X"]), try #require(values["Y"]))
        let (width, height) = (try #require(values["WIDTH"]), try #require(values["HEIGHT"]))
        let result = try x.run(
            "xdotool", ["mousemove", "\(left + width - 10)", "\(top + height / 2)", "click", "\(button)"])
        #expect(result.status == 0, "\(result)")
    }
}

/// Runs `body` with i3 on a fresh X session, its bar's status command being i3blocks
/// with the config `blocks`, the blocks' menuctl talking to `daemon`.
/// contrib/i3/config is included, so its bindings are checked as i3 reads them.
func withI3Bar(
    _ daemon: TestDaemon, blocks: String, width: Int = 1024, height: Int = 120,
    _ body: (I3Bar) async throws -> Void
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
        try (blocks + "\n").write(
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
        let bar = I3Bar(x: x, i3: i3, output: output)
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
