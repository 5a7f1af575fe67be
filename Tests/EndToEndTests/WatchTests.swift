import Foundation
import Testing

/// A running `menuctl watch` and the lines it has printed so far. Reads without
/// blocking, so that a missing line fails the test instead of hanging it; the process
/// is always killed and waited for.
final class WatchProcess {
    let process = Process()
    private let output = Pipe()
    /// Read once it has exited, for a sanitizer report.
    private let errors = Pipe()
    private var buffer: [UInt8] = []

    init(socket: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.menuctl)
        process.arguments = ["--socket", socket, "watch"] + arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let fd = output.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// The next printed line, waiting for it within a bound.
    func nextLine(_ what: String) async throws -> String {
        var line: String?
        try await waitUntil("watch to print \(what)") {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes {
                read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, 4096)
            }
            if n > 0 { buffer += chunk[0..<n] }
            guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return false }
            line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            return true
        }
        return line!
    }

    /// The next state of a multi-line format: its lines up to the empty line that ends it.
    func nextState(_ what: String) async throws -> String {
        var lines: [String] = []
        while case let line = try await nextLine(what), !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// SIGKILL: the test process may block SIGTERM in the child it starts. Returns
    /// what it wrote on standard error.
    @discardableResult
    func stop() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        SanitizerReport.check(stderr, from: "menuctl watch")
        return stderr
    }
}

@Suite struct WatchTests {
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
            #expect(watch!.process.terminationStatus == 3)
        }
    }
}
