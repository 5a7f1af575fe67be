import Foundation
import MenuProtocol
import TestSupport
import Testing

/// A menu written for another machine: its value commands name a program this one
/// lacks. The log names it once, however many nodes, runs and retries use it, and
/// `menuctl get` says why each node is stale.
@Suite(.ownThread) struct MissingProgramTests {
    static let missing = "menud-test-missing-program"

    /// Two nodes read with the missing program (inside `$(…)`, where sh's exit
    /// status does not tell), one listens through it in a pipeline that exits 0, and
    /// their hooks run it too; `quiet`'s listener ends at once, with success.
    static let config = """
        menu:
          - id: volume
            title: "Volume: {value}%"
            type: range
            value: 40
            value-cmd: v=$(\(missing) get) || exit 1; echo "$v"
            value-listen: echo run >> volume-runs; \(missing) subscribe | cat
            on-change: \(missing) set "$MENU_VALUE"
          - id: wifi
            title: "Wi-Fi: {value}"
            type: toggle
            value: on
            value-cmd: s=$(\(missing) radio) || exit 1; echo "$s"
            on-change: \(missing) radio "$MENU_VALUE"
          - id: quiet
            title: "Quiet: {value}"
            type: toggle
            value: off
            value-listen: echo run >> quiet-runs
        """

    private func row(_ daemon: TestDaemon, _ path: String) throws -> RowRecord? {
        try daemon.request("get \(path)").lines.lazy.compactMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))
        }
        .first
    }

    private func runs(_ daemon: TestDaemon, _ name: String) -> Int {
        ((try? String(contentsOfFile: daemon.directory.file(name), encoding: .utf8)) ?? "")
            .split(separator: "\n").count
    }

    @Test func theMissingProgramIsLoggedOnceAndGetSaysWhy() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        try await withDaemon(config: config, directory: directory) { daemon in
            let reason = "\(Self.missing): not found"
            try await waitUntil("both nodes stale for the missing program") {
                try row(daemon, "volume")?.staleReason == reason && row(daemon, "wifi")?.staleReason == reason
            }
            // The listener is started again (1 s on), and the hooks run it too.
            try await waitUntil("the listener's second run") { runs(daemon, "volume-runs") >= 2 }
            #expect(try daemon.request("set volume 50").isOK)
            #expect(try daemon.request("toggle wifi").isOK)
            try await waitUntil("the quiet listener's second run") { runs(daemon, "quiet-runs") >= 2 }
            try await waitUntil("both hooks ended") {
                let stale = try row(daemon, "wifi")?.staleReason == reason
                return daemon.log.components(separatedBy: "on-change").count >= 3 && stale
            }
            // The value-cmds ran again after their hooks, and failed again.
            try await Task.sleep(for: .milliseconds(300))

            let log = daemon.log
            let naming = log.split(separator: "\n").filter { $0.contains(Self.missing) }
            #expect(naming.count == 1, "\(log)")
            #expect(naming.first?.contains("\(reason) (") == true, "\(log)")
            #expect(
                log.contains("value-listen quiet: 'echo run >> quiet-runs' ended; starting it again in 1 s"),
                "\(log)")
            #expect(!log.contains("exited with status 0"), "\(log)")

            // The row says why and since when, in fields 17 and 18.
            let volume = try #require(try row(daemon, "volume"))
            #expect(volume.stale)
            #expect(volume.fields.count == 18 && volume.fields[16] == reason, "\(volume.fields)")
            #expect(
                volume.staleSince.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil,
                "\(volume.staleSince)")

            let text = try daemon.menuctl(["get", "volume"])
            #expect(text.status == 0, "\(text)")
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.count == 2 && lines[0] == "Volume: 50%", "\(text.stdout)")
            #expect(
                lines.last?.wholeMatch(
                    of: /stale since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: menud-test-missing-program: not found/)
                    != nil, "\(text.stdout)")

            let json = try daemon.menuctl(["--json", "get", "wifi"]).stdout
            #expect(json.contains("\"stale\":true,"), "\(json)")
            #expect(json.contains("\"staleReason\":\"\(reason)\",\"staleSince\":\""), "\(json)")
        }
    }
}
