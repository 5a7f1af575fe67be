import ArgumentParser
import Glibc

/// One client's `ping` latencies to a running menud, in slices taken in turn with a
/// load off and on (``AlternatingPings``), where the load is a program the caller
/// names: it is started for each loaded slice and ended (SIGTERM) before the next
/// idle one. bench/popup-cost drags the popup's slider so.
struct PingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pings",
        abstract: "Time one client's pings while LOAD runs and while it does not, in turn.")

    @Option(help: "The daemon's socket.")
    var socket: String

    @Option(help: "How many slices, half of them loaded.")
    var slices = 20

    @Option(help: "Milliseconds each slice lasts.")
    var sliceMs = 1000

    @Argument(parsing: .remaining, help: "The load: a program and its arguments.")
    var load: [String]

    func run() throws {
        guard !load.isEmpty else { throw ValidationError("no load program given") }
        guard var client = SocketLines.greeted(socket) else {
            throw ValidationError("cannot connect to menud at \(socket)")
        }
        var running: pid_t?
        let pings = AlternatingPings.measure(
            &client, slices: slices, sliceNanos: UInt64(sliceMs) * 1_000_000
        ) { on in
            if let pid = running {
                ChildProcess.stop(pid)
                running = nil
            }
            if on { running = ChildProcess.start(load) }
        }
        guard let pings else { throw ValidationError("a ping failed") }
        print("loaded: \(pings.figure())")
        print(pings.comparison)
    }
}
