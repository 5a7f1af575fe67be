import Foundation
import TestSupport
import Testing

/// A real polybar under Xvfb whose one module is `menuctl watch --format polybar`, the
/// persistent script contrib/polybar/menud.ini uses (`tail = true`). Use it through
/// ``withPolybar(_:screenWidth:_:)``.
///
/// The module's output is observed by having its command `tee` what polybar reads
/// into a file: polybar has no IPC call that returns a module's text, while the file
/// holds exactly the lines polybar was given, one per state. polybar logs at `info`,
/// where it writes each shell command it runs for a click ("Executing shell command").
struct PolybarModule {
    let bar: BackgroundProcess
    let output: String
    /// polybar's working directory: a relative path in a click's command lands here.
    let directory: String

    /// The latest state: the last line watch printed.
    var text: String {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").last
            .map(String.init) ?? ""
    }

    /// The shell commands polybar ran for clicks, from its log.
    var executedCommands: [String] {
        let marker = "Executing shell command: "
        return bar.log.split(separator: "\n").compactMap { line in
            line.range(of: marker).map { String(line[$0.upperBound...]) }
        }
    }

    /// Clicks `button` at every `step` pixels along the bar's middle, from its right end
    /// to its left. A click on a group opens or closes it, which changes only the rows
    /// after it: going leftwards, each click lands on text laid out as it was drawn.
    func clickAlong(_ x: XSession, button: Int = 1, step: Int) throws {
        let bar = try window(x)
        try click(x, button: button, at: Array(stride(from: bar.width - 1, through: 0, by: -step)))
    }

    /// Clicks `button` at each of `positions` (pixels from the bar's left end) in turn.
    func click(_ x: XSession, button: Int, at positions: [Int]) throws {
        let bar = try window(x)
        // One xdotool run for them all; `--delay` replaces the 100 ms it waits after
        // each click by default, which made a sweep of the bar take a minute.
        var arguments: [String] = []
        for position in positions {
            arguments += [
                "mousemove", "--window", bar.id, String(position), String(bar.height / 2),
                "click", "--delay", "20", String(button),
            ]
        }
        let result = try x.run("xdotool", arguments)
        #expect(result.status == 0, "xdotool: \(result)")
    }

    /// The bar's window and its size.
    private func window(_ x: XSession) throws -> (id: String, width: Int, height: Int) {
        let id =
            try x.run("xdotool", ["search", "--onlyvisible", "--class", "polybar"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        let geometry = try x.run("xdotool", ["getwindowgeometry", "--shell", id]).stdout
        let field = { (name: String) in
            geometry.split(separator: "\n").first { $0.hasPrefix(name + "=") }
                .flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
        }
        guard field("WIDTH") > 0, field("HEIGHT") > 0 else {
            throw TimedOut(description: "no size for polybar's window '\(id)': \(geometry); log: \(bar.log)")
        }
        return (id, field("WIDTH"), field("HEIGHT"))
    }
}

/// Runs `body` with a polybar showing `daemon`'s menu on a fresh X session, and stops
/// everything afterwards, however the test ends.
func withPolybar<T>(
    _ daemon: TestDaemon, screenWidth: Int = 1024, _ body: (XSession, PolybarModule) async throws -> T
) async throws -> T {
    // polybar leaves its module's script running when it exits, and starts it again
    // when it ends while polybar runs: the script writes its pid, and is ended once
    // polybar has stopped with the X session.
    let watchPID = daemon.directory.file("watch.pid")
    defer {
        if let text = try? String(contentsOfFile: watchPID, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGTERM)
        }
    }
    return try await withXSession(width: screenWidth, height: 120) { x in
        let output = x.directory.file("module.txt")
        let config = """
            [bar/menu]
            width = 100%
            height = 28
            background = #282a36
            foreground = #f8f8f2
            font-0 = DejaVu Sans Mono:size=11;3
            padding = 1
            modules-left = menu
            ; polybar drops a click that comes within this many ms of the one before
            ; (30 by default): a test's clicks come faster than a hand's.
            throttle-input-for = 0

            [module/menu]
            type = custom/script
            exec = sh -c 'echo $$ > "\(watchPID)"; exec "\(TestPaths.menuctl)" --socket "\(daemon.socketPath)" watch --format polybar' | tee '\(output)'
            tail = true
            ; How long polybar waits to run the script again once it ends: the test ends it first.
            interval = 600
            """
        try config.write(toFile: x.directory.file("polybar.ini"), atomically: true, encoding: .utf8)
        // In the session's directory, so that whatever a click runs stays in there.
        let bar = try x.start(
            "env",
            [
                "-C", x.directory.path, XTools.path(of: "polybar") ?? "polybar", "-l", "info",
                "--config=\(x.directory.file("polybar.ini"))", "menu",
            ],
            environment: x.environment(daemon))
        let module = PolybarModule(bar: bar, output: output, directory: x.directory.path)
        try await waitUntil("polybar to run the module; log: \(bar.log)") { !module.text.isEmpty }
        try await x.waitForWindow(class: "polybar", from: bar)
        return try await body(x, module)
    }
}
