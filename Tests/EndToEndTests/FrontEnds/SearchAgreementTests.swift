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
    /// the selection or typed text as the last word.
    private func rofi(_ daemon: TestDaemon, retv: Int, info: String? = nil, text: String? = nil) throws
        -> [String]
    {
        var environment = ProcessInfo.processInfo.environment
        environment["ROFI_RETV"] = String(retv)
        environment["ROFI_INFO"] = info
        // The value prompt's mark is this test's own.
        environment["XDG_RUNTIME_DIR"] = daemon.directory.path
        let result = try run(
            TestPaths.menuctl,
            ["--socket", daemon.socketPath, "rofi", "--search"] + (text.map { [$0] } ?? []),
            environment: environment)
        #expect(result.status == 0, "menuctl rofi: \(result)")
        return result.stdout.split(separator: "\n").map(String.init)
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
            for query in Self.queries {
                let answers = try found(daemon, query)
                #expect(!answers.isEmpty, "find has answers for '\(query)'")
                #expect(try picked(daemon, query) == answers.map(\.crumbs), "pick --search for '\(query)'")
                _ = try rofi(daemon, retv: 0)
                let page = try rofi(daemon, retv: 2, text: query)
                #expect(Self.paths(page) == answers.map(\.path), "rofi --search for '\(query)': \(page)")
            }
        }
    }

    /// Text typed at a value prompt is the value, not a query, though both come back
    /// to `rofi --search` as a custom entry.
    @Test func rofiSearchTellsAValueFromAQuery() async throws {
        try await withDaemon { daemon in
            _ = try rofi(daemon, retv: 0)
            let answers = try rofi(daemon, retv: 2, text: "hostname")
            #expect(Self.paths(answers).first == "settings/hostname", "\(answers)")
            let prompt = try rofi(daemon, retv: 1, info: "?settings/hostname", text: "Hostname")
            #expect(prompt.contains { $0.hasPrefix("\0prompt\u{1f}Hostname") }, "the value prompt: \(prompt)")
            _ = try rofi(daemon, retv: 2, text: "server")
            #expect(try daemon.value(of: "settings/hostname") == "server")
            // The accordion again: typed text is a query once more.
            let again = try rofi(daemon, retv: 2, text: "wifi")
            #expect(Self.paths(again).first == "settings/wifi", "\(again)")
            #expect(try daemon.value(of: "settings/hostname") == "server")
        }
    }
}
