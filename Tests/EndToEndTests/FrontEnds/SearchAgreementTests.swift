import Foundation
import TestSupport
import Testing

/// One search rule in every front end: the same queries given to `menuctl find`,
/// to `menuctl pick --search` (through a launcher that records what it is offered)
/// and to `menuctl rofi --search` (called as rofi calls it) give the same nodes in
/// the same order.
@Suite(.ownThread) struct SearchAgreementTests {
    static let queries = ["session", "wifi", "term", "power lock", "settings/theme", "dark", "theme"]

    /// `find`'s answers for `query`: paths and breadcrumbs, best first.
    private func found(_ daemon: TestDaemon, _ query: String) throws -> [(path: String, crumbs: String)] {
        let json = try daemon.menuctl(["--json", "find", "-n", "50", query]).stdout
        let records = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return records.map { ($0["path"] as? String ?? "", $0["breadcrumbs"] as? String ?? "") }
    }

    /// What `pick --search` offers for `query`: the launcher types the query, then
    /// records the answers it is shown and cancels.
    private func picked(_ daemon: TestDaemon, _ query: String) throws -> [String] {
        let dir = daemon.directory
        try? FileManager.default.removeItem(atPath: dir.file("count"))
        try? FileManager.default.removeItem(atPath: dir.file("offered"))
        let script = """
            n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count
            if [ $n = 1 ]; then cat > /dev/null; printf '%s\\n' "$QUERY"; exit 0; fi
            cat > offered; exit 1
            """
        try script.write(toFile: dir.file("launcher.sh"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["QUERY"] = query
        let result = try run(
            TestPaths.menuctl,
            [
                "--socket", daemon.socketPath, "pick", "--search", "--launcher",
                "cd '\(dir.path)' && sh launcher.sh",
            ],
            environment: environment)
        #expect(result.status == 1 && result.stderr.contains("cancelled"), "\(result)")
        return try String(contentsOfFile: dir.file("offered"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// `menuctl rofi --search` as rofi runs it: `retv` and `info` in the environment,
    /// the selection or typed text as the last word, in the process group of the rofi
    /// it stands for (`rofi`, a process of the test's that leads one): GLib starts a
    /// rofi's scripts in its group, and their parent is not rofi.
    private func rofi(
        _ daemon: TestDaemon, _ rofi: BackgroundProcess, retv: Int, info: String? = nil, text: String? = nil
    ) throws -> [String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ROFI_RETV"] = String(retv)
        environment["ROFI_INFO"] = info
        // The value prompt's mark is this test's own.
        environment["XDG_RUNTIME_DIR"] = daemon.directory.path
        let result = try run(
            TestPaths.menuctl,
            ["--socket", daemon.socketPath, "rofi", "--search"] + (text.map { [$0] } ?? []),
            environment: environment, processGroup: rofi.pid)
        #expect(result.status == 0, "menuctl rofi: \(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A stand-in for a running rofi: a process that leads a group of its own.
    private func withRofi<T>(_ body: (BackgroundProcess) async throws -> T) async throws -> T {
        let directory = try TempDirectory()
        let stand = try BackgroundProcess(
            "/bin/sleep", ["1000"], environment: ProcessInfo.processInfo.environment,
            log: directory.file("sleep.log"))
        return try await withCleanup({ try await body(stand) }, cleanup: { await stand.stop() })
    }

    /// The paths of a rofi page's rows: their `info`, a found node's after `?`.
    private static func paths(_ page: [String]) -> [String] {
        page.compactMap { line in
            guard let info = line.components(separatedBy: "\0info\u{1f}").dropFirst().first else {
                return nil
            }
            let path = info.components(separatedBy: "\u{1f}")[0]
            return path.hasPrefix("?") ? String(path.dropFirst()) : nil
        }
    }

    @Test func findPickAndRofiOfferTheSameNodes() async throws {
        try await withDaemon { daemon in
            try await withRofi { stand in try offerTheSameNodes(daemon, stand) }
        }
    }

    private func offerTheSameNodes(_ daemon: TestDaemon, _ stand: BackgroundProcess) throws {
        for query in Self.queries {
            let answers = try found(daemon, query)
            #expect(!answers.isEmpty, "find has answers for '\(query)'")
            #expect(try picked(daemon, query) == answers.map(\.crumbs), "pick --search for '\(query)'")
            _ = try rofi(daemon, stand, retv: 0)
            let page = try rofi(daemon, stand, retv: 2, text: query)
            #expect(Self.paths(page) == answers.map(\.path), "rofi --search for '\(query)': \(page)")
        }
    }

    /// Text typed at a value prompt is the value, not a query, though both come back
    /// to `rofi --search` as a custom entry.
    @Test func rofiSearchTellsAValueFromAQuery() async throws {
        try await withDaemon { daemon in
            try await withRofi { stand in
                _ = try rofi(daemon, stand, retv: 0)
                let answers = try rofi(daemon, stand, retv: 2, text: "hostname")
                #expect(Self.paths(answers).first == "settings/hostname", "\(answers)")
                let prompt = try rofi(daemon, stand, retv: 1, info: "?settings/hostname", text: "Hostname")
                #expect(
                    prompt.contains { $0.hasPrefix("\0prompt\u{1f}Hostname") }, "the value prompt: \(prompt)")
                _ = try rofi(daemon, stand, retv: 2, text: "server")
                #expect(try daemon.value(of: "settings/hostname") == "server")
                // The accordion again: typed text is a query once more.
                let again = try rofi(daemon, stand, retv: 2, text: "wifi")
                #expect(Self.paths(again).first == "settings/wifi", "\(again)")
                #expect(try daemon.value(of: "settings/hostname") == "server")
            }
        }
    }

    /// Two rofis at once: a value prompt in one leaves the other's typed text a query.
    /// Their scripts have the same parent (here the test, for rofi init), so the page
    /// each shows is kept by rofi's process group.
    @Test func aValuePromptInOneRofiLeavesAnotherSearching() async throws {
        try await withDaemon { daemon in
            try await withRofi { asking in
                try await withRofi { searching in
                    _ = try rofi(daemon, asking, retv: 0)
                    _ = try rofi(daemon, searching, retv: 0)
                    let prompt = try rofi(
                        daemon, asking, retv: 1, info: "?settings/hostname", text: "Hostname")
                    #expect(
                        prompt.contains { $0.hasPrefix("\0prompt\u{1f}Hostname") },
                        "the value prompt: \(prompt)")
                    let answers = try rofi(daemon, searching, retv: 2, text: "wifi")
                    #expect(Self.paths(answers).first == "settings/wifi", "\(answers)")
                    #expect(try daemon.value(of: "settings/hostname") != "wifi")
                    // The prompt is still the other rofi's.
                    _ = try rofi(daemon, asking, retv: 2, text: "server")
                    #expect(try daemon.value(of: "settings/hostname") == "server")
                }
            }
        }
    }
}
