import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// The wire protocol, spoken with raw socket clients.
@Suite(.ownThread) struct ProtocolTests {
    @Test func greetsThenAnswersPing() async throws {
        try await withDaemon { daemon in
            let connection = try UnixSocketConnection.connect(path: daemon.socketPath)
            connection.setReceiveTimeout(seconds: 20)
            #expect(try connection.readGreeting() == "OK MENUD 1")
            try connection.send("ping\n")
            #expect(try connection.readReply() == ProtocolReply(lines: [], terminator: "OK"))
        }
    }

    @Test func quotedArgumentsArriveIntact() async throws {
        try await withDaemon { daemon in
            let value = #"a "quoted" \ value"#
            let connection = try daemon.connect()
            try connection.send("set settings/hostname \(ProtocolWords.quote(value))\n")
            #expect(try connection.readReply().isOK)
            try connection.send("get \"settings/hostname\"\n")
            let reply = try connection.readReply()
            let fields = ProtocolFields.fields(of: reply.lines[0])
            #expect(fields[7] == value)
            // On the wire the backslash is escaped; nothing else is.
            #expect(reply.lines[0].contains("\t" + #"a "quoted" \\ value"# + "\t"))
        }
    }

    @Test func crlfAndBlankLinesAndFinalLineWithoutNewline() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send("ping\r\n\n   \t\nget apps\r\nping")
            connection.finishSending()
            #expect(try connection.readReply().isOK)
            #expect(try connection.readReply().lines.first?.hasPrefix("row\t0\t0\tgroup") == true)
            #expect(try connection.readReply().isOK)
            #expect(try connection.readLine() == nil)
        }
    }

    /// One request per error code that can be provoked from a client of the same user.
    @Test(arguments: [
        ("frobnicate", "unknown-command"),
        ("get", "wrong-arguments"),
        ("ping extra", "wrong-arguments"),
        ("expand apps --deep", "wrong-arguments"),
        ("row two", "wrong-arguments"),
        ("get nowhere", "no-such-node"),
        ("expand settings/wifi", "not-expandable"),
        ("set apps on", "not-a-value"),
        ("set settings/wifi maybe", "invalid-value"),
        ("activate settings/hostname", "not-activatable"),
        ("row 99", "no-such-row"),
        ("get \"open", "bad-request"),
        ("get a\"b", "bad-request"),
        ("end", "not-in-batch"),
    ])
    func errorCodes(request: String, code: String) async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send(request + "\nping\n")
            let reply = try connection.readReply()
            #expect(reply.errorCode == code, "\(request) → \(reply.terminator)")
            #expect(reply.lines.isEmpty)
            // The connection stays usable after any ERR.
            #expect(try connection.readReply().isOK)
        }
    }

    @Test func invalidUTF8IsABadRequest() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send(Array("get ".utf8) + [0xFF, 0xFE] + Array("\nping\n".utf8))
            #expect(try connection.readReply().errorCode == "bad-request")
            #expect(try connection.readReply().isOK)
        }
    }

    @Test func lineTooLongThenConnectionStillUsable() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            let long = "get " + String(repeating: "x", count: 200_000)
            try connection.send(long + "\nping\n")
            let reply = try connection.readReply()
            #expect(reply.errorCode == "line-too-long")
            #expect(try connection.readReply().isOK)
            // Exactly at the limit is still a line (and here an unknown path).
            let atLimit = "get " + String(repeating: "y", count: 65536 - 4)
            try connection.send(atLimit + "\r\n")
            #expect(try connection.readReply().errorCode == "no-such-node")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            let paths = ["apps", "settings", "settings/wifi", "nowhere", "power", "settings/theme"]
            try connection.send(paths.map { "get \($0)\n" }.joined(separator: "ping\n"))
            for (i, path) in paths.enumerated() {
                let reply = try connection.readReply()
                if path == "nowhere" {
                    #expect(reply.errorCode == "no-such-node")
                } else {
                    #expect(ProtocolFields.fields(of: reply.lines[0])[6] == path)
                }
                if i < paths.count - 1 { #expect(try connection.readReply().isOK) }
            }
        }
    }

    @Test func closeAnswersThenCloses() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send("close\nping\n")
            #expect(try connection.readReply().isOK)
            #expect(try connection.readLine() == nil)
        }
    }

    @Test func helpAndCommandsListTheTable() async throws {
        try await withDaemon { daemon in
            let commands = try daemon.request("commands").lines.map { ProtocolFields.fields(of: $0)[1] }
            #expect(commands.contains("expand-to"))
            #expect(commands.contains("begin"))
            let help = try daemon.request("help expand")
            #expect(
                help.lines == [
                    "help\texpand\texpand PATH [--recursive]\tOpen a group or choice (and every group below with --recursive)."
                ])
            #expect(try daemon.request("help nope").errorCode == "unknown-command")
        }
    }

    /// Another user is refused by SO_PEERCRED even when the file modes would let it in.
    /// Needs root, to loosen the modes and to connect as someone else.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func otherUsersAreRefused() async throws {
        try await withDaemon { daemon in
            chmod(daemon.directory.path, 0o755)
            chmod((daemon.socketPath as NSString).deletingLastPathComponent, 0o755)
            chmod(daemon.socketPath, 0o666)
            let probe = """
                import socket; s = socket.socket(socket.AF_UNIX); s.connect('\(daemon.socketPath)')
                print(s.makefile().read(), end='')
                """
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            try #require(python != nil, "needs python3 to act as a client of another uid")
            let result = try run(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", python!, "-c", probe])
            #expect(result.stdout.hasPrefix("ERR permission "), "\(result)")
            #expect(!result.stdout.contains("OK MENUD"))
            #expect(try daemon.request("ping").isOK)
        }
    }
}
