import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `menuctl find` against the real daemon: its text and JSON forms, children a
/// command loaded becoming findable, hostile text staying text, and the bad queries.
@Suite(.ownThread) struct MenuctlFindTests {
    @Test func textShowsPathsAndBreadcrumbs() async throws {
        try await withDaemon { daemon in
            let result = try daemon.menuctl(["find", "sess", "-n", "2"])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdout == """
                    power/session       Power › Session
                    power/session/lock  Power › Session › Lock

                    """)
        }
    }

    @Test func jsonCarriesPositionsAndTheMatchedText() async throws {
        try await withDaemon { daemon in
            let result = try daemon.menuctl(["--json", "find", "wifi on", "--limit", "1"])
            #expect(result.status == 0, "\(result)")
            let array = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(array.count == 1)
            #expect(array[0]["path"] as? String == "settings/wifi")
            #expect(array[0]["type"] as? String == "toggle")
            #expect(array[0]["title"] as? String == "Wi-Fi: on")
            #expect(array[0]["value"] as? String == "on")
            #expect(array[0]["breadcrumbs"] as? String == "Settings › Wi-Fi: on")
            #expect(array[0]["matched"] as? String == "title")
            #expect(array[0]["positions"] as? [Int] == [0, 1, 3, 4, 7, 8])
        }
    }

    /// A command's children are found once the group has loaded them, whatever
    /// their titles hold, and a value's change is found at once.
    @Test func loadedChildrenAndChangedValuesAreFound() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try """
        menu:
          - id: docs
            title: Documents
            children-cmd: |
              printf '%s\\n' '- {id: report, title: "Report $(touch pwned) é"}' '- {id: notes, title: Notes}'
          - id: wifi
            title: "Wi-Fi: {value}"
            type: toggle
            value: off

        """.write(toFile: config, atomically: true, encoding: .utf8)
        try await withDaemon(config: config, directory: directory) { daemon in
            #expect(try daemon.menuctl(["find", "report"]).stdout == "")
            #expect(try daemon.menuctl(["expand", "docs"]).status == 0)
            let found = try daemon.menuctl(["--raw", "find", "report e"])
            let line = try #require(found.stdout.split(separator: "\n").first)
            let record = try #require(FoundRecord(fields: ProtocolFields.fields(of: String(line))))
            #expect(record.path == "docs/report")
            #expect(record.title == "Report $(touch pwned) é")
            #expect(record.breadcrumbs == "Documents › Report $(touch pwned) é")
            #expect(!directory.contains("pwned"))
            #expect(try daemon.menuctl(["find", "wifi on"]).stdout == "")
            #expect(try daemon.menuctl(["set", "wifi", "on"]).status == 0)
            #expect(try daemon.menuctl(["find", "wifi on"]).stdout == "wifi  Wi-Fi: on\n")
        }
    }

    @Test func badQueriesAreRefusedWithAReason() async throws {
        try await withDaemon { daemon in
            let cases: [([String], String)] = [
                (["find", ""], "menuctl: bad-query: the query is empty\n"),
                (["find", "a\tb"], "menuctl: bad-query: the query holds a control character (U+9)\n"),
                // A control character other than tab is refused before any command.
                (
                    ["find", "a\u{7}"],
                    "menuctl: bad-request: request contains the control character U+0007\n"
                ),
                (
                    ["find", String(repeating: "x", count: 300)],
                    "menuctl: bad-query: the query is 300 bytes long; at most 256 are searched\n"
                ),
                (["find", "x", "-n", "0"], "menuctl: bad-query: the limit must be from 1 to 10000, not 0\n"),
                (
                    ["find", "x", "-n", "1000000000"],
                    "menuctl: bad-query: the limit must be from 1 to 10000, not 1000000000\n"
                ),
            ]
            for (arguments, message) in cases {
                let result = try daemon.menuctl(arguments)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.stderr == message)
            }
            // A query of 64 KiB is longer than a request line may be; one that is not
            // UTF-8 is no request. The connection goes on after each.
            let connection = try UnixSocketConnection.connect(path: daemon.socketPath)
            connection.setReceiveTimeout(seconds: 20)
            var bytes = Array("find ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 65536) + [10]
            bytes += Array("find ".utf8) + [0xFF, 0xFE, 10]
            bytes += Array("find \".*\"\nfind x 1e9\nping\n".utf8)
            try connection.send(bytes)
            connection.finishSending()
            var received: [String] = []
            while let line = try connection.readLine() { received.append(line) }
            #expect(
                received == [
                    "OK MENUD 1",
                    "ERR line-too-long a request line may hold at most 65536 bytes",
                    "ERR bad-request request is not valid UTF-8",
                    "OK",
                    "ERR wrong-arguments the limit must be a whole number: 1e9",
                    "OK",
                ])
        }
    }
}

/// `menuctl open`: a deep link shows the node, focuses it and opens it, loading a
/// command group's children as `expand` does.
@Suite(.ownThread) struct MenuctlOpenTests {
    @Test func openShowsFocusesAndOpensACommandGroup() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try """
        menu:
          - id: places
            title: Places
            children:
              - id: recent
                title: Recent
                children-cmd: "printf '%s\\\\n' '- {id: a, title: Alpha}'"

        """.write(toFile: config, atomically: true, encoding: .utf8)
        try await withDaemon(config: config, directory: directory) { daemon in
            let result = try daemon.menuctl(["--raw", "open", "places/recent"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("focus\tplaces\tplaces/recent\n"), "\(result.stdout)")
            let rows = try daemon.menuctl(["rows"]).stdout
            #expect(rows == "▾ Places\n  ▾ Recent\n      Alpha\n", "\(rows)")
            #expect(try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tplaces\tplaces/recent\n")
            #expect(
                try daemon.menuctl(["open", "places/nope"]).stderr
                    == "menuctl: no-such-node: no node at 'places/nope'\n")
        }
    }
}
