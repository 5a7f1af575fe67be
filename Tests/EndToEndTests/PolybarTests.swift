import Foundation
import Testing

/// A real polybar under Xvfb whose module is `menuctl watch --format polybar`, the
/// persistent script contrib/polybar/menud.ini uses (`tail = true`).
///
/// The module's output is observed by having its command `tee` what polybar reads
/// into a file: polybar has no IPC call that returns a module's text, while the file
/// holds exactly the lines polybar was given, one per state.
@Suite struct PolybarTests {
    static let programs = ["Xvfb", "polybar", "xdotool", "import"]

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func moduleFollowsTheDaemon() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            // polybar leaves its module's script running when it exits, and starts it
            // again when it ends while polybar runs: the script writes its pid, and is
            // ended once polybar has stopped with the X session.
            let watchPID = daemon.directory.file("watch.pid")
            defer {
                if let text = try? String(contentsOfFile: watchPID, encoding: .utf8),
                    let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    kill(pid, SIGTERM)
                }
            }
            try await withXSession(width: 1024, height: 120) { x in
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

                    [module/menu]
                    type = custom/script
                    exec = sh -c 'echo $$ > "\(watchPID)"; exec "\(TestPaths.menuctl)" --socket "\(daemon.socketPath)" watch --format polybar' | tee '\(output)'
                    tail = true
                    ; How long polybar waits to run the script again once it ends: the test ends it first.
                    interval = 600
                    """
                try config.write(toFile: x.directory.file("polybar.ini"), atomically: true, encoding: .utf8)
                let bar = try x.start(
                    "polybar", ["--config=\(x.directory.file("polybar.ini"))", "menu"],
                    environment: x.environment(daemon))
                // The latest state: the last line watch printed.
                let moduleText = {
                    ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").last
                        .map(String.init) ?? ""
                }
                try await waitUntil("polybar to run the module; log: \(bar.log)") {
                    moduleText().contains("%{R}▸ Applications%{R}")
                }
                let first = moduleText()
                try await x.waitForWindow(class: "polybar", from: bar)

                #expect(try daemon.menuctl(["expand", "apps"]).status == 0)
                #expect(try daemon.menuctl(["nav", "next"]).status == 0)
                try await waitUntil("the module to show apps open and the focus on apps/term") {
                    moduleText().contains("▾ Applications%{A}  %{A1:")
                        && moduleText().contains("%{R}Terminal%{R}")
                }
                #expect(moduleText() != first)
                #expect(bar.isRunning, "polybar log: \(bar.log)")
                try x.screenshot("polybar")
            }
        }
    }
}
