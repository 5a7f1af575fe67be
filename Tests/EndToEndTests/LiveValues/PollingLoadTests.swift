import Foundation
import TestSupport
import Testing

/// `value-cmd`s on an `interval` shorter than they take: each node is read again
/// once its run ends, and the log says once that polling falls behind.
@Suite(.ownThread) struct PollingLoadTests {
    static let config =
        "menu:\n"
        + (0..<20).map { k in
            """
              - id: n\(k)
                title: "N\(k): {value}"
                type: range
                value-cmd: echo x >> polls; sleep 0.5; echo \(k)
                interval: 100ms

            """
        }.joined()

    private func polls(_ daemon: TestDaemon) -> Int {
        ((try? String(contentsOfFile: daemon.directory.file("polls"), encoding: .utf8)) ?? "")
            .split(separator: "\n").count
    }

    @Test func pollingThatCannotKeepUpIsSaidOnceAndRunsEachNodeOnce() async throws {
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config) { daemon in
                let line = "value-cmd polling cannot keep up"
                try await waitUntil("the log to say polling falls behind; log:\n\(daemon.log)") {
                    daemon.log.contains(line)
                }
                let before = polls(daemon)
                // Three more rounds of every node, each started after its last ended.
                try await waitUntil("60 more runs") { polls(daemon) >= before + 60 }
                #expect(daemon.log.components(separatedBy: line).count == 2, "\(daemon.log)")
                #expect(try daemon.request("ping").isOK)
            }
        }
    }
}
