import ArgumentParser
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The least a server on menud's own loop layer (MenuLoop over libuv) can do per
/// request: greet, then answer `OK` to every line, with none of menud's framing
/// limits, dispatch or model. The socket section drives it beside menud, its peers and
/// the bare poll loop, so the table shows the limit the loop layer sets and how much
/// of menud's time is its own work.
struct LoopFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loop-floor",
        abstract: "Serve `OK` to every line on a Unix socket from a MenuLoop loop, as a baseline.")

    @Option(help: "The socket to listen on.")
    var socket: String

    func run() throws {
        // A client that leaves before its greeting (menubench's own readiness probe)
        // must cost a write error, not the process, as in menud.
        signal(SIGPIPE, SIG_IGN)
        unlink(socket)
        let loop = try EventLoop()
        let listener = try UnixListener(loop: loop, path: socket)
        // One reply buffer for every connection: a read is answered before the next.
        var reply: [UInt8] = []
        listener.onConnection = { connection in
            connection.write(Array("OK MENUD 1\n".utf8))
            connection.onRead = { bytes in
                var lines = 0
                for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
                guard lines > 0 else { return }
                reply.removeAll(keepingCapacity: true)
                for _ in 0..<lines { reply += [UInt8(ascii: "O"), UInt8(ascii: "K"), UInt8(ascii: "\n")] }
                reply.withUnsafeBytes { connection.write($0) }
            }
            connection.onEndOfInput = { connection.shutdown() }
            connection.startReading()
        }
        listener.startAccepting()
        loop.run()
    }
}
