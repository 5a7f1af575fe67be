import Foundation
import TestSupport
import Testing

/// `menuctl watch` while the daemon is away: bars are told (waybar's class
/// `disconnected`), the user is told once on stderr which socket it waits for, and a
/// watch whose reader has gone exits instead of waiting forever.
@Suite(.ownThread) struct WatchAbsenceTests {
    @Test(arguments: [
        (
            "waybar",
            #"{"text":"menud: not running","alt":"disconnected","tooltip":"menud is not running; waiting for it at SOCKET","class":["disconnected"]}"#
        ),
        ("polybar", "menud: not running"),
        ("i3blocks", "menud: not running"),
        ("json", #"{"scope":null,"focus":null,"rows":[],"disconnected":true}"#),
    ])
    func barsShowTheDaemonAwayThenBack(format: String, away: String) async throws {
        let directory = try TempDirectory()
        let socket = directory.file("run/socket")
        let watch = try WatchProcess(socket: socket, arguments: ["--format", format])
        var stderr = ""
        defer { if watch.process.isRunning { stderr = watch.stop() } }
        let expected = away.replacing("SOCKET", with: socket)
        #expect(try await watch.nextLine("the state while menud has not started") == expected)
        try await withDaemon(directory: directory) { daemon throws in
            let state = try await watch.nextLine("the state once menud is there")
            #expect(state != expected && state.contains("Applications"), "\(state)")
            await daemon.stop()
            #expect(try await watch.nextLine("the state once menud has gone") == expected)
        }
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try await watch.nextLine("the state once menud is back").contains("Applications"))
            stderr = watch.stop()
        }
        // Once per absence, however many retries each took.
        let waiting = stderr.split(separator: "\n").filter { $0.contains("waiting for it") }
        #expect(waiting.count == 2, "\(stderr)")
        #expect(
            waiting.allSatisfy { $0.hasPrefix("menuctl: cannot reach menud at \(socket): ") }, "\(stderr)")
    }

    @Test func yambarGetsADisconnectedTagSet() async throws {
        let directory = try TempDirectory()
        let watch = try WatchProcess(socket: directory.file("socket"), arguments: ["--format", "yambar"])
        defer { watch.stop() }
        let tags = try await watch.nextState("the tag set while menud is away")
        #expect(tags.contains("text|string|menud: not running\n"))
        #expect(tags.contains("state|string|disconnected\n"))
    }

    @Test func rowFormatsPrintNothingWhileAway() async throws {
        let directory = try TempDirectory()
        let socket = directory.file("run/socket")
        let watch = try WatchProcess(socket: socket, arguments: ["--format", "lines"])
        defer { watch.stop() }
        try await withDaemon(directory: directory) { daemon throws in
            // The first thing printed is the menu, not an absence.
            #expect(
                try await watch.nextState("the state")
                    == (try rendered(daemon, ["--format", "lines"])).dropLast())
        }
    }

    /// The bar that ran it has exited: standard output is a pipe nobody reads.
    @Test(arguments: [false, true])
    func exitsWhenItsReaderLeaves(daemonThere: Bool) async throws {
        let directory = try TempDirectory()
        let socket = directory.file("run/socket")
        func watchUntilTheReaderLeaves() async throws {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let watch = try BackgroundProcess(
                TestPaths.menuctl, ["--socket", socket, "watch", "--format", "waybar"],
                environment: ProcessInfo.processInfo.environment, log: directory.file("watch.log"),
                standardOutput: fds[1])
            close(fds[1])
            // Its first line shows it is running (the menu, or the absence).
            var byte: UInt8 = 0
            #expect(read(fds[0], &byte, 1) == 1)
            close(fds[0])
            var failure: (any Error)?
            do {
                try await waitUntil("watch to exit once its reader has gone; log: \(watch.log)") {
                    !watch.isRunning
                }
            } catch {
                failure = error
            }
            #expect(watch.exitStatus == 0, "\(watch.ending)")
            await watch.stop()
            if let failure { throw failure }
        }
        if daemonThere {
            try await withDaemon(directory: directory) { _ in try await watchUntilTheReaderLeaves() }
        } else {
            try await watchUntilTheReaderLeaves()
        }
    }
}
