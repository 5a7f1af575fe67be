import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// Clients that send what no well-behaved client would, or stop behaving halfway. Each
/// gets a clear `ERR` (or is dropped, where it asked for that), and the daemon goes
/// on serving everybody else.
@Suite(.ownThread) struct HostileClientTests {
    @Test(arguments: [
        ("NUL", Array("get apps\u{0}x\n".utf8), "U+0000"),
        ("lone CR", Array("get apps\rping\n".utf8), "U+000D"),
        ("escape", Array("set settings/hostname \u{1B}[2J\n".utf8), "U+001B"),
    ])
    func controlCharactersAreABadRequest(name: String, request: [UInt8], character: String) async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send(request + Array("ping\n".utf8))
            let reply = try connection.readReply()
            #expect(reply.errorCode == "bad-request", "\(name)")
            #expect(reply.errorMessage?.contains(character) == true, "\(reply.terminator)")
            #expect(try connection.readReply().isOK)
        }
    }

    @Test func tenThousandArgumentsAreOneShortError() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            let words = (0..<10_000).map { "w\($0)" }.joined(separator: " ")
            try connection.send("get \(words)\nset settings/hostname \(words)\nping\n")
            for _ in 0..<2 {
                let reply = try connection.readReply()
                #expect(reply.errorCode == "wrong-arguments")
                // The error names the count; it does not echo ten thousand words back.
                #expect(reply.terminator.count < 200, "\(reply.terminator.prefix(300))")
            }
            #expect(try connection.readReply().isOK)
        }
    }

    /// A megabyte of random bytes (seeded, so a failure can be replayed): every line
    /// gets one reply, none of them takes the daemon down, and a new client is served.
    @Test func aMegabyteOfRandomBytes() async throws {
        try await withDaemon { daemon in
            var generator = SplitMix64(seed: 0x6D65_6E75)
            let noise = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let connection = try daemon.connect()
            let sender = BackgroundSender(connection, noise)
            var errors = 0
            while let line = try connection.readLine() {
                if line.hasPrefix("ERR ") { errors += 1 }
            }
            try sender.finish()
            #expect(errors > 1000, "random lines should be refused one by one")
            #expect(try daemon.request("ping").isOK)
            #expect(!daemon.log.contains("Fatal error"))
        }
    }

    /// Every reply asked for before a `close` arrives before the daemon closes:
    /// megabytes of them, and the client reads only once the daemon has stopped writing
    /// because the socket is full, so the close has to wait for writes still queued in it.
    @Test func everyReplyArrivesBeforeTheClose() async throws {
        // A client that does not read is dropped after the stall timeout (30 s by
        // default), and under a sanitizer on a busy machine this task may not look
        // again for longer than that: the drop would cut the replies short.
        try await withDaemon(arguments: ["--stall-timeout", "600"]) { daemon in
            let connection = try daemon.connect()
            let count = 3000
            let sender = BackgroundSender(
                connection, Array((String(repeating: "tree\n", count: count) + "close\n").utf8))
            // The replies are megabytes, far more than a socket holds, so the daemon must
            // come to a stop: what waits unread no longer grows. Both looks are in one
            // check, since a busy machine may run this task seldom.
            try await waitUntil("the daemon to stop writing to a client that does not read") {
                let before = connection.unreadByteCount
                usleep(50_000)
                return before > 0 && connection.unreadByteCount == before
            }
            var replies = 0
            var rows = 0
            while let line = try connection.readLine() {
                if line == "OK" { replies += 1 } else if line.hasPrefix("row\t") { rows += 1 }
            }
            try sender.finish()
            #expect(replies == count + 1)
            #expect(rows > 0 && rows % count == 0, "\(rows) rows")
        }
    }

    /// Half a request holds up nobody: others are served meanwhile, and the rest of the
    /// line, however late, completes it.
    @Test func halfALineWaitsWithoutBlockingOthers() async throws {
        try await withDaemon { daemon in
            let slow = try daemon.connect()
            try slow.send("get app")
            for _ in 0..<3 { #expect(try daemon.request("ping").isOK) }
            try slow.send("s\n")
            let reply = try slow.readReply()
            #expect(reply.isOK)
            #expect(ProtocolFields.fields(of: reply.lines[0])[6] == "apps")
        }
    }

    /// The client goes away while the daemon still owes it replies: a slow one (a
    /// children command it is waiting for) and a pile of quick ones it never reads.
    @Test func disconnectingWhileRepliesArePending() async throws {
        try await withDaemon(config: TestPaths.fixture("live.yaml")) { daemon in
            do {
                let opener = try daemon.connect()
                try opener.send("expand gated\n" + String(repeating: "rows\n", count: 2000))
            }
            do {
                let quick = try daemon.connect()
                try quick.send(String(repeating: "rows\nsave\n", count: 500))
            }
            try "".write(toFile: daemon.directory.file("go"), atomically: false, encoding: .utf8)
            try await waitUntil("the gated group to open for nobody") {
                let row = try daemon.request("get gated").lines.first
                return row.flatMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }?.state == "expanded"
            }
            #expect(try daemon.request("ping").isOK)
            #expect(daemon.process.isRunning)
        }
    }

    /// A client that asks and asks but never reads: the daemon stops reading its
    /// requests once its unread replies pass the high-water mark, so what it holds for
    /// it stays bounded, and after `--stall-timeout` drops it and says so.
    @Test func aClientThatNeverReadsIsBoundedThenDropped() async throws {
        try await withDaemon(arguments: ["--stall-timeout", "1"]) { daemon in
            let greedy = try daemon.connect()
            greedy.setSendTimeout(seconds: 1)
            let requests = Array(String(repeating: "rows\n", count: 4096).utf8)
            var dropped = false
            try await waitUntil("the greedy client to be dropped; log:\n\(daemon.log)", seconds: 60) {
                do {
                    try greedy.send(requests)
                } catch let failure as UnixSocketConnection.Failure
                    where failure.errno == EPIPE || failure.errno == ECONNRESET
                {
                    dropped = true
                } catch let failure as UnixSocketConnection.Failure where failure.errno == EAGAIN {
                    // The daemon has stopped reading; keep pushing until it hangs up.
                }
                return dropped && daemon.log.contains("dropped a client")
            }
            let line = try #require(
                daemon.log.split(separator: "\n").first { $0.contains("dropped a client") })
            let words = line.split(separator: " ")
            let left = try #require(words.firstIndex(of: "left"))
            let pending = try #require(Int(words[left + 1]))
            // The connection stops reading above 64 KiB queued; one `rows` reply is far smaller.
            // Above nothing: the client was dropped for replies it left unread.
            #expect(pending > 0 && pending < 256 * 1024, "\(line)")
            #expect(try daemon.request("ping").isOK)
        }
    }

    @Test func aThousandConnectionsAtOnce() async throws {
        OpenFiles.raiseSoftLimit(atLeast: 2500)
        try await withDaemon { daemon in
            var connections: [UnixSocketConnection] = []
            for _ in 0..<1000 { connections.append(try daemon.connect()) }
            for connection in connections { try connection.send("get power\n") }
            for connection in connections {
                let reply = try connection.readReply()
                #expect(ProtocolFields.fields(of: reply.lines[0])[6] == "power")
            }
            connections.removeAll()
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// With few file descriptors, the connection past the limit is refused with an
    /// `ERR` instead of the greeting, logged, and the clients already there go on; once
    /// one leaves, a new one gets in.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func connectionsPastTheLimitAreRefusedAndLogged() async throws {
        // 100 descriptors less the daemon's reserve of 64 leaves 36 clients.
        try await withDaemon(launcher: ["/usr/bin/prlimit", "--nofile=100:100", "--"]) { daemon in
            // Logged once it listens, so possibly just after start() has connected.
            try await waitUntil("the client limit in the log: \(daemon.log)") {
                daemon.log.contains("at most 36 clients")
            }
            // start() has probed the socket already; wait until that probe is gone.
            var connections: [UnixSocketConnection] = []
            var last: String?
            do {
                try await waitUntil("36 connections to be accepted", seconds: 60) {
                    let connection = try UnixSocketConnection.connect(path: daemon.socketPath)
                    connection.setReceiveTimeout(seconds: 20)
                    last = try connection.readLine()
                    guard last == "OK MENUD 1" else { return false }
                    connections.append(connection)
                    return connections.count == 36
                }
            } catch let error as TimedOut {
                // It has failed, rarely, under a sanitizer and the whole suite's load:
                // say what the daemon was doing then.
                throw TimedOut(
                    description: "\(error): \(connections.count) accepted, the last reply \(last ?? "none"),"
                        + " menud \(daemon.process.ending) with \(openDescriptors(daemon.pid)) descriptors; log:\n\(daemon.log)"
                )
            }
            let refused = try UnixSocketConnection.connect(path: daemon.socketPath)
            refused.setReceiveTimeout(seconds: 20)
            let line = try #require(try refused.readLine())
            #expect(line.hasPrefix("ERR too-many-connections "), "\(line)")
            #expect(try refused.readLine() == nil)
            #expect(daemon.log.contains("refused a connection"))
            for connection in connections {
                try connection.send("ping\n")
                #expect(try connection.readReply().isOK)
            }
            connections.removeLast()
            try await waitUntil("a new client to get in after one left") {
                let connection = try UnixSocketConnection.connect(path: daemon.socketPath)
                connection.setReceiveTimeout(seconds: 20)
                return try connection.readLine() == "OK MENUD 1"
            }
        }
    }
}

/// A small seeded generator, so the random input is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The test process's own descriptor limit: a thousand clients need a thousand
/// descriptors on this side too.
enum OpenFiles {
    static func raiseSoftLimit(atLeast wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else {
            return
        }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
