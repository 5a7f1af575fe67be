import Foundation
import TestSupport
import Testing

/// A running `menuctl watch` and the lines it has printed so far. Reads without
/// blocking, so that a missing line fails the test instead of hanging it; the process
/// is always killed and waited for.
final class WatchProcess {
    let process: BackgroundProcess
    /// The read end of its standard output; its standard error goes to a log, read
    /// once it has exited, for a sanitizer report.
    private let output: Int32
    private var lines: LineReader
    private let directory: TempDirectory

    init(socket: String, arguments: [String] = []) throws {
        directory = try TempDirectory()
        let ends = try ProgramSpawn.pipe(nonblockingRead: true)
        output = ends.read
        lines = LineReader(ends.read)
        defer { close(ends.write) }
        do {
            process = try BackgroundProcess(
                TestPaths.menuctl, ["--socket", socket, "watch"] + arguments,
                environment: ProcessInfo.processInfo.environment,
                log: directory.file("watch.log"), standardOutput: ends.write)
        } catch {
            close(ends.read)
            throw error
        }
    }

    /// A watch the test did not stop (it had exited) is reaped here.
    deinit {
        process.killAndReap(group: true)
        close(output)
    }

    /// The next printed line, waiting for it within a bound.
    func nextLine(_ what: String) async throws -> String {
        var line: String?
        try await waitUntil("watch to print \(what)") {
            line = lines.nextLine()
            return line != nil
        }
        return line!
    }

    /// The next state of a multi-line format: its lines up to the empty line that ends it.
    func nextState(_ what: String) async throws -> String {
        var lines: [String] = []
        while case let line = try await nextLine(what), !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// SIGKILL; returns what it wrote on standard error.
    @discardableResult
    func stop() -> String {
        process.killAndReap(group: true)
        let stderr = process.log
        SanitizerReport.check(stderr, from: "menuctl watch")
        return stderr
    }
}

@Suite(.ownThread) struct WatchTests {
    @Test func printsTheStateThenALinePerChangeAndSurvivesARestart() async throws {
        let directory = try TempDirectory()
        let socket = directory.file("run/socket")
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon(directory: directory) { daemon throws in
            watch = try WatchProcess(socket: socket)
            #expect(
                try await watch!.nextLine("the state")
                    == "Applications | Settings | Wi-Fi: on | Theme: Dark | Hostname: workstation | Power")
            #expect(try daemon.request("collapse settings").isOK)
            #expect(try await watch!.nextLine("the first change") == "Applications | Settings | Power")
        }
        // The daemon is gone; a new one restores the state and watch finds it.
        try await withDaemon(directory: directory) { daemon throws in
            #expect(
                try await watch!.nextLine("the state after the restart") == "Applications | Settings | Power")
            #expect(try daemon.request("expand apps").isOK)
            #expect(
                try await watch!.nextLine("a change after the restart")
                    == "Applications | Terminal | Tab here | Settings | Power")
        }
        #expect(watch!.process.isRunning)
    }

    @Test func jsonLinesAndNoReconnect() async throws {
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await withDaemon { daemon throws in
            watch = try WatchProcess(socket: daemon.socketPath, arguments: ["--json", "--no-reconnect"])
            let state = try await watch!.nextLine("the state")
            #expect(state.hasPrefix("[{\"row\":0,\"path\":\"apps\""))
            await daemon.stop()
            try await waitUntil("watch to exit") { !watch!.process.isRunning }
            #expect(watch!.process.exitStatus == 3, "menuctl watch \(watch!.process.ending)")
        }
    }
}
