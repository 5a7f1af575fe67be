import Foundation
import TestSupport
import Testing

/// A real rofi with `menuctl rofi` as its script mode, as contrib/rofi/README.md runs
/// it, on an X session.
extension XSession {
    /// Starts rofi on the menu of `daemon` and waits for its window. `-modi` is what
    /// rofi 1.7.3 reads; later rofis read it too. `options` go after `menuctl rofi`
    /// in the mode's command line, which rofi splits as a shell would.
    func startRofi(_ daemon: TestDaemon, options: String = "") async throws -> BackgroundProcess {
        let mode = "menu:\(TestPaths.menuctl) rofi" + (options.isEmpty ? "" : " " + options)
        let rofi = try start(
            "rofi",
            // rofi allows one instance per pid file; its own keeps parallel tests apart.
            // `-show-icons`, as documented: the rows' `\0icon` are drawn.
            // `-no-lazy-grab`: rofi holds the keyboard before its window shows, so
            // keys typed once the window is there are not lost on a busy machine,
            // where a grab retried later came after the first keys.
            [
                "-show", "menu", "-modi", mode, "-show-icons", "-no-lazy-grab", "-pid",
                directory.file("rofi.pid"),
            ],
            environment: environment(daemon))
        try await waitForWindow(class: "rofi", from: rofi)
        return rofi
    }

    /// Waits until `rofi` runs no script: the page a step asked for is read, and
    /// keys typed from now on go to it. rofi reads keys only between steps, and
    /// keys that arrive while it takes a step's output may go to the page it leaves.
    func rofiSettled(_ rofi: BackgroundProcess) async throws {
        let children = "/proc/\(rofi.pid)/task/\(rofi.pid)/children"
        try await waitUntil("rofi (\(rofi.pid)) to end its script; rofi log: \(rofi.log)") {
            let text = (try? String(contentsOfFile: children, encoding: .utf8)) ?? ""
            return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !rofi.isRunning
        }
    }

    /// The height of rofi's window. rofi has no way to read what it shows; but its
    /// window grows by the message box while a page's message shows above the list
    /// (the list keeps its number of lines), and shrinks when a page has none.
    func rofiHeight() throws -> Int {
        let id =
            try run("xdotool", ["search", "--onlyvisible", "--class", "rofi"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        let geometry = try run("xdotool", ["getwindowgeometry", "--shell", id]).stdout
        guard
            let height = geometry.split(separator: "\n").first(where: { $0.hasPrefix("HEIGHT=") })
                .flatMap({ Int($0.dropFirst("HEIGHT=".count)) })
        else { throw TimedOut(description: "no height for rofi's window '\(id)': \(geometry)") }
        return height
    }
}

extension TestDaemon {
    /// A node's value, from `menuctl get`.
    func value(of path: String) throws -> String {
        let fields = try menuctl(["--raw", "get", path]).stdout.split(
            separator: "\t", omittingEmptySubsequences: false)
        return fields.count > 7 ? String(fields[7]) : ""
    }

    /// The path of the focused node, from `menuctl focused`.
    func focusedPath() throws -> String {
        try menuctl(["--raw", "focused"]).stdout.split(separator: "\t").last.map {
            $0.trimmingCharacters(in: .newlines)
        } ?? ""
    }
}
