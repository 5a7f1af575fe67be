import Foundation
import MenuClient
import TestSupport
import Testing

/// Every ```session block of docs/protocol.md, replayed against the real daemon: the
/// protocol document cannot drift from what the daemon does. A block serves
/// Fixtures/menu.yaml, or the fixture its opening line names (```session ranges.yaml).
@Suite(.ownThread) struct DocExampleTests {
    struct Session: CustomStringConvertible {
        var startLine: Int
        var fixture = "menu.yaml"
        var requests: [String] = []
        /// Everything the daemon should send, greeting first.
        var expected: [String] = []
        var description: String { "session at docs/protocol.md:\(startLine)" }
    }

    static func sessions() throws -> [Session] {
        let text = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        var sessions: [Session] = []
        var current: Session?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                let words = line.split(separator: " ")
                if words.first == "```session" {
                    current = Session(startLine: number + 1)
                    if words.count > 1 { current!.fixture = String(words[1]) }
                }
            } else if line == "```" {
                sessions.append(current!)
                current = nil
            } else if line.hasPrefix("> ") {
                current!.requests.append(String(line.dropFirst(2)))
            } else {
                current!.expected.append(String(line))
            }
        }
        return sessions
    }

    @Test func protocolDocumentHasSessions() throws {
        #expect(try Self.sessions().count >= 5)
    }

    @Test(arguments: try sessions())
    func sessionMatchesDaemon(_ session: Session) async throws {
        try await withDaemon(config: TestPaths.fixture(session.fixture)) { daemon in
            let connection = try UnixSocketConnection.connect(path: daemon.socketPath)
            connection.setReceiveTimeout(seconds: 20)
            // Pipelined and then half-closed: the daemon answers everything and closes,
            // so reading to the end yields exactly the whole conversation.
            try connection.send(session.requests.map { $0 + "\n" }.joined())
            connection.finishSending()
            var received: [String] = []
            while let line = try connection.readLine() { received.append(line) }
            #expect(received == session.expected, "\(session)")
        }
    }
}
