import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A served client and the client itself, each a ``SocketConnection``: what menud's
/// clients are. (Children's output, read by a ``PipeReader``, is ChildProcessTests'.)
@Suite(.ownThread) struct SocketConnectionTests {
    init() {
        // A write to a peer that is gone must fail with EPIPE, not end the tests.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Small writes are taken at once: nothing waits, so there is nothing to drain.
    @Test func echoesBytesBothWays() throws {
        var echoed: [UInt8] = []
        var drains = 0
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, _ in
                    server.onRead = { server.write(Array($0)) }
                    server.onEndOfInput = { server.close() }
                    server.onDrain = { drains += 1 }
                    client.onDrain = { drains += 1 }
                    server.startReading()
                    client.onRead = { bytes in
                        echoed += bytes
                        if echoed.count == 11 { client.close() }
                    }
                    client.startReading()
                    client.write(Array("hello".utf8))
                    client.write(Array(" world".utf8))
                }
            }
        }
        #expect(String(decoding: echoed, as: UTF8.self) == "hello world")
        #expect(drains == 0)
    }

    @Test func endOfInputLeavesWritingOpen() throws {
        var events: [String] = []
        var received: [UInt8] = []
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, clientFD in
                    server.onRead = { events.append("read \(String(decoding: $0, as: UTF8.self))") }
                    server.onEndOfInput = {
                        events.append("end of input")
                        // Half-closed: the reply still reaches the client.
                        server.write(Array("bye".utf8))
                        server.shutdown()
                    }
                    server.onClose = { events.append("server closed") }
                    server.startReading()
                    client.onRead = { received += $0 }
                    client.onEndOfInput = {
                        events.append("client end of input")
                        client.close()
                    }
                    client.startReading()
                    client.write(Array("last".utf8))
                    Glibc.shutdown(clientFD, Int32(SHUT_WR))
                }
            }
        }
        #expect(String(decoding: received, as: UTF8.self) == "bye")
        #expect(Array(events.prefix(2)) == ["read last", "end of input"])
        #expect(Set(events.dropFirst(2)) == ["client end of input", "server closed"])
    }

    @Test func peerCredentialsNameThisProcess() throws {
        var credentials: PeerCredentials?
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, _ in
                    credentials = try? server.peerCredentials()
                    server.close()
                    client.close()
                }
            }
        }
        #expect(credentials == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
    }

    /// A client that does not read leaves bytes queued; once it reads, the queue
    /// empties and the drain callback says so.
    @Test func queuesWhatTheClientDoesNotReadAndDrains() throws {
        let payload = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var queuedBeforeReading = 0
        var drainedBeforeReading = false
        var queuedAtDrain = -1
        var received: [UInt8] = []
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, _ in
                    var clientReads = false
                    server.onDrain = {
                        if !clientReads { drainedBeforeReading = true }
                        queuedAtDrain = server.queuedBytes
                        server.shutdown()
                    }
                    server.write(payload)
                    queuedBeforeReading = server.queuedBytes
                    // Give the loop a turn in which the client still does not read.
                    let later = LoopTimer(loop: loop)
                    later.onFire = {
                        later.close()
                        clientReads = true
                        client.onRead = { received += $0 }
                        client.onEndOfInput = { client.close() }
                        client.startReading()
                    }
                    later.start(after: .milliseconds(20))
                }
            }
        }
        #expect(queuedBeforeReading > 0)
        #expect(queuedBeforeReading < payload.count)
        #expect(!drainedBeforeReading)
        #expect(queuedAtDrain == 0)
        #expect(received == payload)
    }

    @Test func stoppedReadingDeliversNothingUntilResumed() throws {
        var readWhileStopped = false
        var received: [UInt8] = []
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, _ in
                    var stopped = true
                    server.onRead = { bytes in
                        if stopped { readWhileStopped = true }
                        received += bytes
                        if received.count == 4 {
                            server.close()
                            client.close()
                        }
                    }
                    server.startReading()
                    server.stopReading()
                    #expect(!server.isReading)
                    client.write(Array("ping".utf8))
                    // The bytes are in the server's socket by now; a loop turn later,
                    // they have still not been read.
                    let later = LoopTimer(loop: loop)
                    later.onFire = {
                        later.close()
                        stopped = false
                        server.startReading()
                    }
                    later.start(after: .milliseconds(20))
                }
            }
        }
        #expect(!readWhileStopped)
        #expect(String(decoding: received, as: UTF8.self) == "ping")
    }

    @Test func aPeerThatLeftIsAnErrorOnWrite() throws {
        var error: UVError?
        var closed = false
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                try withConnectedPair(on: loop, in: directory) { server, client, _ in
                    client.close()
                    server.onError = { error = $0 }
                    server.onClose = { closed = true }
                    // Until the client's close is seen, writes may still be taken;
                    // enough of them meet the closed socket.
                    let writer = LoopTimer(loop: loop)
                    writer.onFire = {
                        server.write(Array(repeating: 1, count: 1024))
                        if server.state != .open { writer.close() }
                    }
                    writer.start(after: .zero, repeating: .milliseconds(1))
                }
            }
        }
        #expect(error?.errno == EPIPE || error?.errno == ECONNRESET)
        #expect(closed)
    }
}
