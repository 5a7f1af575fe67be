import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct UnixListenerTests {
    @Test func acceptsEveryWaitingClient() throws {
        var accepted = 0
        try withTemporaryDirectory { directory in
            var clients: [Int32] = []
            defer { for fd in clients { close(fd) } }
            try runLoop { loop in
                let listener = try UnixListener(loop: loop, path: "\(directory)/socket")
                for _ in 0..<5 { clients.append(try connectClient(to: listener.path)) }
                listener.onConnection = { connection in
                    accepted += 1
                    connection.close()
                    if accepted == 5 { listener.close() }
                }
                listener.startAccepting()
            }
            // Closing the listener leaves the socket file to its owner.
            #expect(access("\(directory)/socket", F_OK) == 0)
        }
        #expect(accepted == 5)
    }

    @Test func aPathInUseIsRefused() throws {
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                let listener = try UnixListener(loop: loop, path: "\(directory)/socket")
                #expect(throws: UVError(-EADDRINUSE)) {
                    _ = try UnixListener(loop: loop, path: "\(directory)/socket")
                }
                listener.close()
            }
        }
    }

    /// Out of descriptors, accepting fails with EMFILE: the listener reports it once
    /// and pauses instead of retrying at once (a level-triggered poll would report it
    /// again on every loop turn), and once descriptors are free again the waiting
    /// client is accepted. Run in a process of its own, whose descriptors it uses up:
    /// this test binary again, running only ``exhaustsItsDescriptors()``. Not as one of
    /// swift-testing's exit tests: their monitor once left the child unreaped and the
    /// whole test run waited for it for ever.
    @Test func backsOffWhileOutOfDescriptorsThenAccepts() throws {
        let (status, output) = try runThisTestBinary(
            only: "exhaustsItsDescriptors", environment: [Self.childVariable: "1"])
        #expect(status == 0, "the child run exited with \(status):\n\(output)")
    }

    static let childVariable = "MENULOOP_TEST_EXHAUST_DESCRIPTORS"

    @Test(.enabled(if: getenv(UnixListenerTests.childVariable) != nil))
    func exhaustsItsDescriptors() throws {
        try withTemporaryDirectory { directory in
            var errors: [UVError] = []
            var errorsWhileExhausted = 0
            var accepted = false
            try runLoop { loop in
                let listener = try UnixListener(
                    loop: loop, path: "\(directory)/socket", backoff: .milliseconds(200))
                let client = try connectClient(to: listener.path)
                var limit = rlimit()
                getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
                limit.rlim_cur = 256
                setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
                var spare: [Int32] = []
                while case let fd = dup(0), fd >= 0 { spare.append(fd) }
                let release = LoopTimer(loop: loop)
                release.onFire = {
                    release.close()
                    errorsWhileExhausted = errors.count
                    for fd in spare { close(fd) }
                }
                listener.onAcceptError = { error in
                    errors.append(error)
                    if errors.count == 1 { release.start(after: .milliseconds(50)) }
                }
                listener.onConnection = { connection in
                    accepted = true
                    connection.close()
                    listener.close()
                    close(client)
                }
                listener.startAccepting()
            }
            #expect(accepted)
            #expect(errors.first?.errno == EMFILE, "\(errors)")
            #expect(errorsWhileExhausted < 5, "\(errors)")
        }
    }
}
