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
        // The mode's command notes each call (ROFI_RETV, ROFI_INFO and the arguments) in
        // `rofiCalls`, then becomes `menuctl rofi`, in rofi's process group still.
        let wrapper = directory.file("rofi-mode.sh")
        try writeExecutable(
            """
            #!/bin/sh
            printf '%s\\t%s\\t%s\\n' "${ROFI_RETV:-}" "${ROFI_INFO:-}" "$*" >> '\(directory.file("rofi-calls"))'
            exec '\(TestPaths.menuctl)' rofi "$@"

            """, to: wrapper)
        let mode = "menu:\(wrapper)" + (options.isEmpty ? "" : " " + options)
        let rofi = try start(
            "rofi",
            // rofi allows one instance per pid file; its own keeps parallel tests apart.
            // `-show-icons`, as documented: the rows' `\0icon` are drawn.
            ["-show", "menu", "-modi", mode, "-show-icons", "-pid", directory.file("rofi.pid")],
            environment: environment(daemon))
        try await waitForWindow(class: "rofi", from: rofi)
        return rofi
    }

    /// ``waitUntil(_:seconds:sourceLocation:_:)`` for a step of `rofi`: when it gives
    /// up, it says what rofi and menud logged and how the mode was called by then.
    func waitForRofi(
        _ what: String, _ rofi: BackgroundProcess, _ daemon: TestDaemon, _ condition: () throws -> Bool
    ) async throws {
        do {
            try await waitUntil(what, condition)
        } catch let error as TimedOut {
            throw TimedOut(
                description:
                    "\(error.description); rofi log: \(rofi.log); calls:\n\(rofiCalls)menud log: \(daemon.log)"
            )
        }
    }

    /// Every call of the mode's command so far, one a line: ROFI_RETV, ROFI_INFO and
    /// the arguments, tab-separated.
    var rofiCalls: String {
        (try? String(contentsOfFile: directory.file("rofi-calls"), encoding: .utf8)) ?? ""
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
