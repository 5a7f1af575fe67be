import Foundation
import TestSupport
import Testing

/// The real menuctl binary: output forms and exit statuses.
@Suite(.ownThread) struct MenuctlTests {
    @Test func exitZeroAndTreeOutput() async throws {
        try await withDaemon { daemon in
            let result = try daemon.menuctl(["rows"])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdout == """
                    ▸ Applications
                    ▾ Settings
                        Wi-Fi: on
                      ▸ Theme: Dark
                        Hostname: workstation
                    ▸ Power

                    """)
        }
    }

    @Test func globalOptionsWorkAfterTheSubcommandToo() async throws {
        try await withDaemon { daemon in
            let result = try run(TestPaths.menuctl, ["ping", "--socket", daemon.socketPath])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func jsonRowsAndGet() async throws {
        try await withDaemon { daemon in
            let rows = try daemon.menuctl(["--json", "rows"])
            #expect(rows.status == 0)
            let array = try #require(
                try JSONSerialization.jsonObject(with: Data(rows.stdout.utf8)) as? [[String: Any]])
            #expect(array.count == 6)
            #expect(array[0]["path"] as? String == "apps")
            #expect(array[0]["expanded"] as? Bool == false)
            #expect(array[0]["value"] == nil)
            #expect(array[2]["value"] as? String == "on")
            #expect(array[2]["type"] as? String == "toggle")
            #expect(array[2]["depth"] as? Int == 1)
            #expect(array[2]["title"] as? String == "Wi-Fi: on")
            // Access keys: the first free letter of each title among its siblings.
            #expect(array[0]["key"] as? String == "a")
            #expect(array[2]["key"] as? String == "w")

            let get = try daemon.menuctl(["get", "--json", "apps/tabbed"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(get.stdout.utf8)) as? [String: Any])
            #expect(object["title"] as? String == "Tab\there")
            #expect(object["row"] is NSNull)
        }
    }

    @Test func argumentsAreQuotedForTheProtocol() async throws {
        try await withDaemon { daemon in
            let value = #"-x "y" \z"#
            let set = try daemon.menuctl(["--raw", "set", "settings/hostname", "--", value])
            #expect(set.status == 0, "\(set)")
            #expect(set.stdout == "value\tsettings/hostname\t-x \"y\" \\\\z\n")
            let get = try daemon.menuctl(["--json", "get", "settings/hostname"])
            #expect(get.stdout.contains(#""value":"-x \"y\" \\z""#), "\(get)")
        }
    }

    @Test func exitOneOnErrWithMessageOnStderr() async throws {
        try await withDaemon { daemon in
            let result = try daemon.menuctl(["--raw", "get", "nowhere"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("no-such-node"), "\(result)")
        }
    }

    @Test(arguments: [
        ["frobnicate"], ["get"], ["row", "two"], ["get", "a", "b"], ["set", "a", "two\nlines"],
    ])
    func exitTwoOnUsageErrors(arguments: [String]) throws {
        let result = try run(TestPaths.menuctl, ["--socket", "/nonexistent/socket"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func exitThreeNamesTheSocketPath() throws {
        let directory = try TempDirectory()
        let path = directory.file("nobody-here")
        let result = try run(TestPaths.menuctl, ["--socket", path, "ping"])
        #expect(result.status == 3)
        #expect(result.stderr.contains(path), "\(result)")
    }

    /// A path longer than `sun_path` holds is refused, not cut short to another path.
    @Test func aSocketPathTooLongIsSaidSo() throws {
        let path = "/tmp/" + String(repeating: "x", count: 120)
        let result = try run(TestPaths.menuctl, ["--socket", path, "ping"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("socket path too long"), "\(result)")
    }

    @Test func socketFromEnvironment() async throws {
        try await withDaemon { daemon in
            var environment = ProcessInfo.processInfo.environment
            environment["MENUD_SOCKET"] = daemon.socketPath
            let result = try run(TestPaths.menuctl, ["ping"], environment: environment)
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func batchAppliesAllOrNothing() async throws {
        try await withDaemon { daemon in
            let failed = try daemon.menuctl(["batch", "expand apps", "set settings/wifi maybe"])
            #expect(failed.status == 1)
            #expect(failed.stderr.contains("batch-failed: 2: invalid-value"), "\(failed)")
            #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\tcollapsed\t"))

            let ok = try daemon.menuctl(["batch", "expand apps", "set settings/wifi off"])
            #expect(ok.status == 0, "\(ok)")
            #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t"))
        }
    }

    @Test func helpAndCompletionScript() throws {
        let help = try run(TestPaths.menuctl, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("expand-to"))
        let bash = try run(TestPaths.menuctl, ["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("menuctl"))
    }

    /// A reload that changes many nodes names the first 20 and counts the rest.
    @Test func aReloadNamesAFewOfManyChangedNodes() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        func menu(_ values: Int) -> String {
            "menu:\n  - id: levels\n    title: Levels\n    expanded: true\n    children:\n"
                + (0..<values).map {
                    "      - id: l\($0)\n        type: range\n        title: L\($0)\n        value: 5\n"
                }
                .joined()
        }
        try menu(1).write(toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: directory) { daemon in
            try menu(31).write(toFile: config, atomically: false, encoding: .utf8)
            let result = try daemon.menuctl(["reload"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.first == "Config reloaded: \(config)", "\(result.stdout)")
            #expect(lines.count == 1 + 20 + 1, "\(result.stdout)")
            #expect(lines.last == "… and 10 more changed nodes", "\(result.stdout)")
        }
    }

    /// A value that starts with `-` is a value, not an option.
    @Test func aValueMayStartWithADash() async throws {
        try await withDaemon { daemon throws in
            let text = try daemon.menuctl(["set", "settings/hostname", "-x y"])
            #expect(text.status == 0 && text.stdout == "Hostname: -x y\n", "\(text)")
            #expect(
                try daemon.menuctl(["--raw", "set", "settings/hostname", "--", "-z"]).stdout.hasSuffix(
                    "\t-z\n"))
            // The daemon, not the option parser, answers for a value it refuses.
            let refused = try daemon.menuctl(["set", "settings/wifi", "-1"])
            #expect(refused.status == 1 && refused.stderr.contains("invalid-value"), "\(refused)")
            let two = try daemon.menuctl(["set", "settings/hostname", "a", "b"])
            #expect(two.status == 2 && two.stderr.contains("set takes one value"), "\(two)")
        }
    }
}
