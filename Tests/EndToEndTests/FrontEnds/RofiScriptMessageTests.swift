import Foundation
import TestSupport
import Testing

/// The `\0message` line `menuctl rofi` gives each page, read from its output as rofi
/// would call it (rofi-script(5): ROFI_RETV, ROFI_INFO, the selection as last word).
/// rofi keeps a page's message until a later page sends another, and reads it as
/// Pango markup.
@Suite(.ownThread) struct RofiScriptMessageTests {
    /// `menuctl rofi` as rofi runs it: `retv` 1 with the selected row's `info`.
    private func page(_ daemon: TestDaemon, retv: Int, info: String? = nil) throws -> [String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ROFI_RETV"] = String(retv)
        environment["ROFI_INFO"] = info
        let result = try run(
            TestPaths.menuctl, ["--socket", daemon.socketPath, "rofi"] + (retv == 0 ? [] : ["the row"]),
            environment: environment)
        #expect(result.status == 0, "menuctl rofi: \(result)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private static let message = "\0message\u{1f}"

    @Test func treePagesClearTheMessage() async throws {
        try await withDaemon { daemon in
            #expect(try page(daemon, retv: 0).contains(Self.message))
            // A group opening in place is the page after a value page, whose message
            // rofi would otherwise keep.
            let opened = try page(daemon, retv: 1, info: "apps")
            #expect(opened.contains(Self.message), "page: \(opened)")
            #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t"))
        }
    }

    @Test func valuePageMessageIsEscapedForPango() async throws {
        try await withDaemon { daemon in
            #expect(try daemon.menuctl(["set", "settings/hostname", "R&D <3"]).status == 0)
            let lines = try page(daemon, retv: 1, info: "settings/hostname")
            let messages = lines.filter { $0.hasPrefix(Self.message) }
            #expect(messages.count == 1, "page: \(lines)")
            let message = messages.first ?? ""
            #expect(message.contains("R&amp;D &lt;3"), "message: \(message)")
            #expect(!message.contains("R&D"), "message: \(message)")
        }
    }
}
