import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a test's handles on a loop of its own until none is left, then checks that
/// every handle was closed: the loop itself closes (`uv_loop_close` returns 0). A
/// watchdog, which does not keep the loop running, bounds a hang. `afterRun` closes
/// what the test left open on purpose, once the loop has returned without it.
func runLoop(
    limit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    afterRun: () -> Void = {}, _ setUp: (EventLoop) throws -> Void
) throws {
    let loop = try EventLoop()
    let watchdog = LoopTimer(loop: loop)
    watchdog.keepsLoopAlive = false
    var hung = false
    watchdog.onFire = {
        hung = true
        loop.stop()
    }
    watchdog.start(after: limit)
    try setUp(loop)
    loop.run()
    watchdog.close()
    afterRun()
    guard !hung else {
        Issue.record("still open after \(limit): \(loop.openHandles)", sourceLocation: sourceLocation)
        return
    }
    // The watchdog's close callback.
    loop.run()
    #expect(loop.openHandles == [], sourceLocation: sourceLocation)
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try loop.close() }
}

/// A pipe for `body`: its read end first, then its write end; both closed when
/// `body` returns.
func withPipe<T>(_ body: ([Int32]) throws -> T) throws -> T {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw UVError(-errno) }
    defer {
        close(ends[0])
        close(ends[1])
    }
    return try body(ends)
}

/// A client socket connected to `path`, with plain libc calls.
func connectClient(to path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw UVError(-errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard rc == 0 else {
        let error = UVError(-errno)
        close(fd)
        throw error
    }
    return fd
}

/// A listener at a fresh path and one client connected to it: `body` gets the
/// server's side once accepted (the listener is closed by then), the client's side
/// as a connection too, and the client's descriptor for plain socket calls.
func withConnectedPair(
    on loop: EventLoop, in directory: String,
    _ body: @escaping (_ server: SocketConnection, _ client: SocketConnection, _ clientFD: Int32) -> Void
) throws {
    let listener = try UnixListener(loop: loop, path: "\(directory)/socket")
    let fd = try connectClient(to: listener.path)
    let client = try SocketConnection(loop: loop, adopting: fd)
    listener.onConnection = { server in
        listener.close()
        body(server, client, fd)
    }
    listener.onAcceptError = { Issue.record("accept failed: \($0)") }
    listener.startAccepting()
}
