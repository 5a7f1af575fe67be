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
        // The replies to the most one read can hold, all empty lines, written from
        // the front: nothing per request but counting. Not a captured variable, whose
        // every access the runtime's exclusivity checks would cost.
        let ok = Array("OK\n".utf8)
        let replies = (0..<(EventLoop.readBufferSize * 3)).map { ok[$0 % 3] }
        listener.onConnection = { connection in
            connection.write(Array("OK MENUD 1\n".utf8))
            connection.onRead = { bytes in
                var lines = 0
                for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
                guard lines > 0 else { return }
                replies.withUnsafeBytes {
                    connection.write(UnsafeRawBufferPointer(rebasing: $0[..<(lines * 3)]))
                }
            }
            connection.onEndOfInput = { connection.shutdown() }
            connection.startReading()
        }
        listener.startAccepting()
        loop.run()
    }
}
