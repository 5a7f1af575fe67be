import Foundation
import TestSupport
import Testing

/// menuctl's three forms of output: text for a person by default, `--json`
/// on every command that prints something (a usage error where it means nothing), and
/// `--raw` for the protocol's records unchanged. Real menud, real menuctl, the fixture menu.
@Suite(.ownThread) struct OutputStyleTests {
    @Test func changesPrintTheNodesTheyChanged() async throws {
        try await withDaemon { daemon in
            func text(_ arguments: [String]) throws -> String {
                let result = try daemon.menuctl(arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
                return result.stdout
            }
            #expect(try text(["toggle", "power"]) == "▾ Power (1 row)\n")
            #expect(try text(["toggle", "power"]) == "▸ Power (1 row)\n")
            #expect(try text(["set", "settings/wifi", "off"]) == "Wi-Fi: off\n")
            // Nothing changed: the node named is shown as it is.
            #expect(try text(["set", "settings/wifi", "off"]) == "Wi-Fi: off\n")
            #expect(try text(["expand", "settings"]) == "▾ Settings (3 rows)\n")
            #expect(try text(["expand-to", "power/session/lock"]) == "▾ Power (2 rows)\n▾ Session (1 row)\n")
            #expect(try text(["activate", "settings/theme/Light"]) == "▸ Theme: Light (2 rows)\n")
            #expect(try text(["nav", "next"]) == "Focus on settings: ▾ Settings (3 rows)\n")
            #expect(try text(["focused"]) == "Focus on settings: ▾ Settings (3 rows)\n")
            let ran = try text(["activate", "apps/tabbed"])
            // The title's tab is a space: menu text stays on its line.
            #expect(ran.hasPrefix("Started Tab here (pid ") && ran.hasSuffix("): true\n"), "\(ran)")
            #expect(
                try text(["batch", "collapse power", "set settings/hostname box"])
                    == "▸ Power (2 rows)\nHostname: box\n")
            #expect(try text(["ping"]) == "")
        }
    }

    @Test func getAndRowPrintTheSameWay() async throws {
        try await withDaemon { daemon in
            for (path, row, line) in [
                ("settings", "1", "▾ Settings (3 rows)\n"), ("settings/wifi", "2", "Wi-Fi: on\n"),
                ("apps", "0", "▸ Applications (2 rows)\n"),
            ] {
                let get = try daemon.menuctl(["get", path])
                #expect(get.status == 0 && get.stdout == line, "get \(path): \(get)")
                #expect(try daemon.menuctl(["row", row]).stdout == line, "row \(row)")
                let json = try daemon.menuctl(["--json", "get", path]).stdout
                #expect(json == (try daemon.menuctl(["--json", "row", row]).stdout), "\(json)")
                #expect(try Self.object(json)["path"] as? String == path)
            }
            #expect(
                try Self.object(try daemon.menuctl(["--json", "get", "settings"]).stdout)["rows"] as? Int == 3
            )
        }
    }

    @Test func jsonOnEveryCommandThatPrints() async throws {
        try await withDaemon { daemon in
            func json(_ arguments: [String]) throws -> Any {
                let result = try daemon.menuctl(["--json"] + arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
                #expect(result.stdout.filter { $0 == "\n" }.count == 1, "\(arguments): one line: \(result)")
                return try JSONSerialization.jsonObject(
                    with: Data(result.stdout.utf8), options: .fragmentsAllowed)
            }
            let toggle = try #require(try json(["toggle", "power"]) as? [String: Any])
            let nodes = try #require(toggle["nodes"] as? [[String: Any]])
            #expect(
                nodes.count == 1 && nodes[0]["path"] as? String == "power" && nodes[0]["rows"] as? Int == 1)
            #expect((toggle["expansions"] as? [[String: Any]])?.first?["expanded"] as? Bool == true)
            #expect((toggle["splices"] as? [[String: Any]])?.first?["inserted"] as? Int == 1)

            let set = try #require(try json(["set", "settings/wifi", "off"]) as? [String: Any])
            #expect((set["values"] as? [[String: Any]])?.first?["value"] as? String == "off")
            #expect((set["nodes"] as? [[String: Any]])?.first?["title"] as? String == "Wi-Fi: off")

            let nav = try #require(try json(["nav", "next"]) as? [String: Any])
            #expect((nav["focus"] as? [String: Any])?["path"] as? String == "settings")
            let focused = try #require(try json(["focused"]) as? [String: Any])
            #expect(focused["menu"] as? String == "settings" && focused["path"] as? String == "settings")
            #expect((focused["row"] as? [String: Any])?["title"] as? String == "Settings")

            let activate = try #require(try json(["activate", "apps/tabbed"]) as? [String: Any])
            #expect((activate["ran"] as? [String: Any])?["command"] as? String == "true")

            let version = try #require(try json(["version"]) as? [String: Any])
            #expect((version["menud"] as? [String: Any])?["protocol"] as? Int == 1)
            #expect((version["menuctl"] as? [String: Any])?["version"] is String)

            let commands = try #require(try json(["commands"]) as? [[String: Any]])
            #expect(
                commands.contains { $0["name"] as? String == "get" && $0["usage"] as? String == "get PATH" })

            let batch = try #require(try json(["batch", "expand apps"]) as? [String: Any])
            #expect((batch["nodes"] as? [[String: Any]])?.first?["path"] as? String == "apps")
            #expect((try json(["rows"]) as? [Any])?.count == 9)
            #expect((try json(["render"]) as? [String: Any])?["focus"] as? String == "settings")
            let reload = try #require(try json(["reload"]) as? [String: Any])
            #expect((reload["config"] as? [String: Any])?["outcome"] as? String == "reloaded")
        }
    }

    /// Refused before anything is sent: the socket is nowhere, and the status is 2, not 3.
    @Test(arguments: [
        ["--json", "ping"], ["--json", "save"], ["--json", "send", "ping"], ["--json", "rofi"],
        ["--json", "pick", "--launcher", "cat"], ["--raw", "watch"], ["--raw", "render"],
        ["--json", "--raw", "rows"], ["--raw", "--version"], ["--json", "render", "--format", "tree"],
        ["--json", "help"], ["help", "rows", "--raw"], ["rows", "--help", "--json"], ["rofi", "--raw"],
    ])
    func anOptionWithoutMeaningIsAUsageError(arguments: [String]) throws {
        let result = try run(TestPaths.menuctl, ["--socket", "/nonexistent/socket"] + arguments)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result)")
        let option = arguments.first { $0 == "--json" || $0 == "--raw" } ?? ""
        #expect(result.stderr.contains(option), "\(arguments): \(result)")
    }

    @Test func rawPrintsTheRecordsUnchanged() async throws {
        try await withDaemon { daemon in
            let raw = try daemon.menuctl(["--raw", "toggle", "power"])
            #expect(
                raw.status == 0 && raw.stdout == "splice\t6\t0\t1\nexpansion\tpower\texpanded\n", "\(raw)")
            for request in [
                ["get", "settings/wifi"], ["rows"], ["tree", "power"], ["focused"], ["version"],
            ] {
                let expected = try daemon.request(request.joined(separator: " ")).lines.map { $0 + "\n" }
                    .joined()
                #expect(try daemon.menuctl(["--raw"] + request).stdout == expected, "\(request)")
                #expect(try daemon.menuctl(request + ["--raw"]).stdout == expected, "\(request)")
                #expect(try daemon.menuctl(["send"] + request).stdout == expected, "\(request)")
            }
        }
    }

    @Test func topLevelHelpListsTheGlobalOptions() throws {
        let help = try run(TestPaths.menuctl, ["--help"])
        #expect(help.status == 0)
        for option in ["--socket <path>", "--json", "--raw", "--version"] {
            #expect(help.stdout.contains("\n  \(option)"), "\(option) in:\n\(help.stdout)")
        }
    }

    @Test func versionSaysWhichDaemonAndWhetherThereIsOne() async throws {
        try await withDaemon { daemon in
            let records = try daemon.request("version").lines.map {
                $0.split(separator: "\t").map(String.init)
            }
            let menud = try #require(records.first { $0.first == "menud" })[1]
            let version = try daemon.menuctl(["--version"])
            #expect(version.status == 0)
            let lines = version.stdout.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].hasPrefix("menuctl ") && lines[0].hasSuffix(" (protocol 1)"))
            #expect(lines.last == "menud \(menud) (protocol 1)", "\(version)")
            #expect(try daemon.menuctl(["version"]).stdout == version.stdout)
        }
        let directory = try TempDirectory()
        let nobody = directory.file("socket")
        let alone = try run(TestPaths.menuctl, ["--socket", nobody, "--version"])
        #expect(alone.status == 0, "\(alone)")
        #expect(alone.stdout.hasPrefix("menuctl "))
        #expect(alone.stdout.contains("no daemon: cannot reach menud at \(nobody)"), "\(alone)")
        let json = try run(TestPaths.menuctl, ["--socket", nobody, "--json", "--version"])
        let object = try Self.object(json.stdout)
        #expect(object["menud"] is NSNull && (object["unreachable"] as? String)?.contains(nobody) == true)
        // The subcommand needs the daemon: it fails as any request does.
        #expect(try run(TestPaths.menuctl, ["--socket", nobody, "version"]).status == 3)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
