import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `value-listen` commands that print too much or end too often: the daemon applies
/// the last line of what it reads at once, and restarts a command that keeps ending
/// ever more slowly, logging each step once.
@Suite(.ownThread) struct ListenerFloodTests {
    static let config = """
        menu:
          - id: flood
            title: "Flood: {value}"
            type: text
            value: "0"
            value-listen: while [ ! -f go ]; do sleep 0.05; done; seq 1 200000; echo done; exec sleep 1000
          - id: once
            title: "Once: {value}"
            type: toggle
            value: off
            value-listen: echo run >> once-runs; echo on
        """

    /// 200,001 lines printed as fast as they go: a subscriber sees the value change
    /// about once per read of the pipe, not once per line, stays subscribed, and sees
    /// the last line.
    @Test func aFloodIsAppliedAReadAtATime() async throws {
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config) { daemon in
                let events = try daemon.connect()
                try events.subscribe("value")
                try "".write(toFile: daemon.directory.file("go"), atomically: false, encoding: .utf8)
                var changes = 0
                var last = ""
                while last != "done" {
                    let group = try events.readEventGroup()
                    for record in group.records where record.hasPrefix("value\tflood\t") {
                        changes += 1
                        last = String(record.dropFirst("value\tflood\t".count))
                    }
                }
                #expect(changes < 20_000, "\(changes) changes for 200,001 lines")
                #expect(try daemon.value(of: "flood") == "done")
                #expect(try daemon.request("ping").isOK)
            }
        }
    }

    /// A command that prints its line and ends is started again after 1 s, 2 s,
    /// 4 s…: printing a line does not put the back-off back to 1 s, so the log has
    /// each step once.
    @Test func aListenerThatPrintsAndEndsBacksOff() async throws {
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config) { daemon in
                try await waitUntil("the third run of once; log:\n\(daemon.log)") {
                    ((try? String(contentsOfFile: daemon.directory.file("once-runs"), encoding: .utf8)) ?? "")
                        .split(separator: "\n").count >= 3
                }
                let log = daemon.log
                for delay in ["1", "2"] {
                    let line =
                        "value-listen once: 'echo run >> once-runs; echo on' ended; starting it again in \(delay) s"
                    #expect(log.components(separatedBy: line).count == 2, "\(line)\n\(log)")
                }
                #expect(try daemon.value(of: "once") == "on")
            }
        }
    }
}
