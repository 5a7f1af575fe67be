import ArgumentParser
import Foundation
import MenuClient

/// A fixed, repeatable load for `valgrind` (bench/request-cost): one connection sends
/// the request lines in turn, `--batch` of them in one write, and reads their replies
/// before the next batch, so the daemon sees the same reads whatever the machine's
/// load. `--subscribers` connections subscribe to every topic first and read their
/// events on threads of their own until the daemon closes them.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send COUNT requests in lock-step batches, for valgrind.")

    @Option(help: "The daemon's socket.")
    var socket: String

    @Option(help: "How many requests.")
    var count: Int

    @Option(help: "Requests per write; their replies are read before the next write.")
    var batch = 1

    @Option(help: "Connections subscribed to every topic while the requests run.")
    var subscribers = 0

    @Option(name: .customLong("request"), help: "A request line, sent in turn with the others.")
    var lines: [String]

    func run() throws {
        guard !lines.isEmpty, batch > 0 else {
            throw ValidationError("give --request and a positive --batch")
        }
        var listeners: [Thread] = []
        for _ in 0..<subscribers {
            let connection = try UnixSocketConnection.connect(path: socket)
            _ = try connection.readLine()
            try connection.send("subscribe expansion value activate config focus\n")
            while let line = try connection.readLine(), line != "OK" {}
            // Read on one thread only, this one's, from here on.
            nonisolated(unsafe) let reader = connection
            let thread = Thread {
                // Until the daemon stops and closes the connection.
                while (try? reader.readLine()) ?? nil != nil {}
            }
            thread.start()
            listeners.append(thread)
        }
        let connection = try UnixSocketConnection.connect(path: socket)
        _ = try connection.readLine()
        var sent = 0
        var errors = 0
        var next = 0
        while sent < count {
            let n = min(batch, count - sent)
            var bytes: [UInt8] = []
            for _ in 0..<n {
                bytes += Array(lines[next].utf8) + [UInt8(ascii: "\n")]
                next = (next + 1) % lines.count
            }
            try connection.send(bytes)
            var replies = 0
            while replies < n, let line = try connection.readLine() {
                if line == "OK" {
                    replies += 1
                } else if line.hasPrefix("ERR ") {
                    replies += 1
                    errors += 1
                }
            }
            sent += n
        }
        print("\(sent) requests, \(errors) errors")
        if errors > 0 { throw ExitCode(1) }
    }
}
