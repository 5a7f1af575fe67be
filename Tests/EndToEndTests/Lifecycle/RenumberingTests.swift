import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// The daemon keeps its groups and value nodes by node number, and a run under way
/// holds its node's number as the model renumbers: a group above it getting its
/// children, or a reload adding a menu before it. What the run brings lands on its
/// own node, not on the node that now has its old number.
@Suite(.ownThread) struct RenumberingTests {
    /// `above`'s fifty children move every later node; `below` and `level`'s
    /// commands count their runs and wait for `go`.
    static func config(first: String = "") -> String {
        let children = (1...50).map { "- {id: a\($0), title: A\($0)}" }.joined(separator: "\\n")
        return """
            menu:
            \(first)
              - id: above
                title: Above
                children-cmd: "printf -- '\(children)\\n'"
              - id: below
                title: Below
                children-cmd: |
                  echo run >> below-runs
                  while [ ! -e go ] && [ -e "$PWD" ]; do sleep 0.02; done
                  echo '- {id: b1, title: B1}'
              - id: settings
                title: Settings
                children:
                  - id: level
                    title: Level
                    type: range
                    min: 0
                    max: 100
                    value: 5
                    value-cmd: echo read >> level-reads; while [ ! -e go ] && [ -e "$PWD" ]; do sleep 0.02; done; echo 42
            """
    }

    private func paths(_ daemon: TestDaemon, _ path: String) throws -> [String] {
        try daemon.request("rows \(path)").lines.compactMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))?.path
        }
    }

    private func value(_ daemon: TestDaemon, _ path: String) throws -> String? {
        try daemon.request("get \(path)").lines.first.flatMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))?.value
        }
    }

    /// `below` opened, its command held; `above` then gets its children, which
    /// renumbers `below` and `level`; then both commands print.
    private func checkRunsLandOnTheirNodes(
        _ daemon: TestDaemon, whileHeld renumber: (TestDaemon) async throws -> Void
    ) async throws {
        let opener = try daemon.connect()
        try opener.send("expand below\n")
        try await waitUntil("below's command started") {
            try paths(daemon, "below") == ["below", "below/loading"]
        }
        try await renumber(daemon)
        try "".write(toFile: daemon.directory.file("go"), atomically: false, encoding: .utf8)
        // The held reply, once the children came: it ends with its OK.
        var reply: [String] = []
        while let line = try opener.readLine() {
            reply.append(line)
            if line == "OK" || line.hasPrefix("ERR") { break }
        }
        #expect(reply.last == "OK", "\(reply)")
        #expect(reply.contains("expansion\tbelow\texpanded"), "\(reply)")
        #expect(try paths(daemon, "below") == ["below", "below/b1"])
        try await waitUntil("level read") { try value(daemon, "settings/level") == "42" }
        #expect(try paths(daemon, "above").count == 51)
        #expect(!daemon.log.contains("warning"), "\(daemon.log)")
        // Each command ran once: the run under way was known as its node's, and no
        // second was started for the node under its new number.
        let runs = try String(contentsOfFile: daemon.directory.file("below-runs"), encoding: .utf8)
        #expect(runs == "run\n")
        let reads = try String(contentsOfFile: daemon.directory.file("level-reads"), encoding: .utf8)
        #expect(reads == "read\n")
    }

    @Test func aRunUnderWayLandsOnItsNodeAfterAGroupAboveItGotItsChildren() async throws {
        try await withConfigFile(Self.config()) { config in
            try await withDaemon(config: config) { daemon in
                try await checkRunsLandOnTheirNodes(daemon) { daemon async throws in
                    #expect(try daemon.request("expand above").isOK)
                    #expect(try paths(daemon, "above").count == 51)
                }
            }
        }
    }

    @Test func aRunUnderWayLandsOnItsNodeAfterAReloadAddedAMenuBeforeIt() async throws {
        try await withConfigFile(Self.config()) { config in
            try await withDaemon(config: config) { daemon in
                try await checkRunsLandOnTheirNodes(daemon) { daemon async throws in
                    #expect(try daemon.request("expand above").isOK)
                    let first = """
                          - id: first
                            title: First
                            children:
                              - {id: f1, title: F1}
                              - {id: f2, title: F2}
                        """
                    try Self.config(first: first).write(toFile: config, atomically: true, encoding: .utf8)
                    #expect(try daemon.request("reload").isOK)
                    #expect(try paths(daemon, "first").count == 1)
                }
            }
        }
    }
}
