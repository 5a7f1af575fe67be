import Foundation
import MenuProtocol
import TestSupport
import Testing

/// A `value-cmd` that prints more than 64 KiB has failed: it is stopped there, with
/// its process group, rather than read to its end (or to its timeout, for one that
/// never ends), and its row says why.
@Suite(.ownThread) struct ValueOutputCapTests {
    @Test func aFloodingValueCommandIsStoppedAtTheCap() async throws {
        let menu = """
            menu:
              - id: flood
                title: "Flood: {value}"
                type: toggle
                value: off
                value-cmd: echo $$ > flood.pid; yes on
            """
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                func row() throws -> RowRecord? {
                    try daemon.request("get flood").lines.lazy.compactMap {
                        RowRecord(fields: ProtocolFields.fields(of: $0))
                    }
                    .first
                }
                // Its 10 s timeout would say "still running": the cap comes first.
                try await waitUntil("the run to fail; log:\n\(daemon.log)") {
                    try row()?.staleReason.isEmpty == false
                }
                #expect(try row()?.staleReason == "'value-cmd' printed more than 64 KiB; stopped it")
                #expect(try row()?.value == "off")
                let pid = try #require(
                    Int32(
                        (try String(contentsOfFile: daemon.directory.file("flood.pid"), encoding: .utf8))
                            .trimmingCharacters(in: .whitespacesAndNewlines)))
                try await waitUntil("the command to be gone") {
                    !ProcessEntry.all().contains { $0.pid == pid && $0.isLiving }
                }
            }
        }
    }
}
