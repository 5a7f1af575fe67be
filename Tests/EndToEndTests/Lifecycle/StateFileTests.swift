import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// The state file: restored on start, written soon after changes and at shutdown,
/// atomic under SIGKILL, set aside when corrupt.
@Suite(.ownThread) struct StateFileTests {
    private func value(_ daemon: TestDaemon, _ path: String) throws -> String? {
        try daemon.request("get \(path)").lines.first
            .flatMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }?.value
    }

    private func expanded(_ daemon: TestDaemon, _ path: String) throws -> Bool {
        try daemon.request("get \(path)").lines.first
            .flatMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }?.isExpanded ?? false
    }

    private func stateFile(_ directory: TempDirectory) -> String? {
        try? String(contentsOfFile: directory.file("state"), encoding: .utf8)
    }

    /// The damaged state files moved aside in `directory`, oldest first.
    static func badCopies(_ directory: TempDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("state.bad.") }.sorted().map(directory.file)
    }

    @Test func stateSurvivesARestart() async throws {
        let directory = try TempDirectory()
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try daemon.request("expand power").isOK)
            #expect(try daemon.request("set settings/hostname \"my box\"").isOK)
            #expect(try daemon.request("collapse settings").isOK)
        }
        // SIGTERM saved it, in the documented text format.
        #expect(
            stateFile(directory)
                == "# menud state 1\ncollapsed settings\nvalue settings/hostname my box\nexpanded power\n")
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try value(daemon, "settings/hostname") == "my box")
            #expect(try expanded(daemon, "power"))
            #expect(try !expanded(daemon, "settings"))
        }
    }

    @Test func stateIsWrittenSoonAfterAChangeAndSurvivesSIGKILL() async throws {
        let directory = try TempDirectory()
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try daemon.request("set settings/wifi off").isOK)
            try await waitUntil("the change to reach the state file") {
                stateFile(directory)?.contains("value settings/wifi off") == true
            }
            daemon.kill()
        }
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try value(daemon, "settings/wifi") == "off")
        }
    }

    /// Kills the daemon with SIGKILL at arbitrary moments while it is writing the
    /// state as fast as it can (`save` after every change), then checks that the file
    /// is always one whole snapshot and that the next daemon starts from it.
    ///
    /// The moments come from a seeded generator: a failure names its seed, and
    /// `MENUD_TEST_SEED=SEED swift test --filter sigkillDuring` kills after the same delays.
    @Test func sigkillDuringWritesNeverLeavesATornFile() async throws {
        let seed =
            ProcessInfo.processInfo.environment["MENUD_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix64(seed: seed)
        let directory = try TempDirectory()
        var expected = "workstation"
        for round in 0..<8 {
            let delay = Int.random(in: 0...15, using: &generator)
            let context = "round \(round), MENUD_TEST_SEED=\(seed), killed \(delay) ms after the writes began"
            try await withDaemon(directory: directory) { daemon throws in
                #expect(try value(daemon, "settings/hostname") == expected, "\(context)")
                let connection = try daemon.connect()
                var requests = ""
                for i in 0..<300 { requests += "set settings/hostname r\(round)-\(i)\nsave\n" }
                try connection.send(requests)
                // Let a few writes through, so that the kill lands during one.
                for _ in 0..<(1 + round % 4) {
                    _ = try connection.readReply()
                    _ = try connection.readReply()
                }
                try await Task.sleep(for: .milliseconds(delay))
                daemon.kill()
            }
            let text = try #require(stateFile(directory), "\(context): no state file")
            let entries = try StateFileFormat.decode(text).get()
            let hostname = entries.compactMap { entry -> String? in
                if case .value(let v) = entry.field, entry.path == "settings/hostname" { return v }
                return nil
            }
            #expect(hostname.count == 1, "\(context): \(text)")
            let saved = try #require(hostname.first)
            #expect(saved.hasPrefix("r\(round)-"), "\(context): \(saved)")
            expected = saved
        }
        #expect(Self.badCopies(directory).isEmpty)
    }

    @Test func aCorruptStateFileIsMovedAsideAndTheDefaultsServed() async throws {
        let directory = try TempDirectory()
        try "# menud state 1\nexpanded power\nwhat is this\n".write(
            toFile: directory.file("state"), atomically: false, encoding: .utf8)
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try !expanded(daemon, "power"))
            let copies = Self.badCopies(directory)
            #expect(copies.count == 1, "\(copies)")
            let copy = try #require(copies.first)
            #expect(daemon.log.contains("moved it to \(copy)"))
            #expect(try String(contentsOfFile: copy, encoding: .utf8).contains("what is this"))
            #expect(try daemon.request("expand power").isOK)
            #expect(try daemon.request("save").isOK)
            #expect(stateFile(directory) == "# menud state 1\nexpanded power\n")
        }
    }

    /// Each damaged file is kept, with the time it was found, up to a few: a second
    /// one does not replace the first.
    @Test func theNewestDamagedFilesAreKept() async throws {
        let directory = try TempDirectory()
        for round in 0..<7 {
            try "# menud state 1\ndamaged \(round)\n".write(
                toFile: directory.file("state"), atomically: false, encoding: .utf8)
            try await withDaemon(directory: directory) { daemon throws in
                #expect(daemon.log.contains("moved it to \(directory.path)/state.bad."), "\(daemon.log)")
            }
        }
        let copies = Self.badCopies(directory)
        let kept = try copies.map { try String(contentsOfFile: $0, encoding: .utf8) }
        #expect(kept == (2..<7).map { "# menud state 1\ndamaged \($0)\n" }, "\(copies)")
    }

    /// A state path without a directory (`--state state`, relative to where menud
    /// runs) is set aside the same way.
    @Test func aDamagedStateFileGivenByARelativePathIsSetAside() async throws {
        let directory = try TempDirectory()
        try "# menud state 1\nwhat is this\n".write(
            toFile: directory.file("state"), atomically: false, encoding: .utf8)
        try await withDaemon(arguments: ["--state", "state"], directory: directory) { daemon throws in
            #expect(try daemon.request("ping").isOK)
            #expect(Self.badCopies(directory).count == 1, "\(daemon.log)")
        }
    }

    /// A state file past the size limit is not read: it is moved aside with one error
    /// line, and the daemon starts at once from the defaults.
    @Test func anOversizedStateFileIsMovedAsideUnread() async throws {
        let directory = try TempDirectory()
        var text = "# menud state 1\n"
        for i in 0..<40_000 { text += "value nowhere/node\(i) some value\n" }
        text += "value settings/hostname huge-\(String(repeating: "x", count: 200_000))\n"
        try text.write(toFile: directory.file("state"), atomically: false, encoding: .utf8)
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try value(daemon, "settings/hostname") == "workstation")
            #expect(
                daemon.log.contains("cannot read it (larger than 1048576 bytes); moved it to"),
                "\(daemon.log)")
            #expect(daemon.log.split(separator: "\n").count < 10, "\(daemon.log)")
            #expect(Self.badCopies(directory).count == 1)
        }
    }

    @Test func entriesThatNoLongerFitAreKeptOrDroppedWithALogLine() async throws {
        let directory = try TempDirectory()
        try "# menud state 1\nexpanded gone\nvalue settings/wifi maybe\nvalue settings/hostname kept\n".write(
            toFile: directory.file("state"), atomically: false, encoding: .utf8)
        try await withDaemon(directory: directory) { daemon throws in
            #expect(try value(daemon, "settings/hostname") == "kept")
            #expect(try value(daemon, "settings/wifi") == "on")
            // One line for each kind, with a count: a state file may hold many.
            #expect(
                daemon.log.contains(
                    "state: kept 1 entries for nodes this menu lacks, such as gone expanded=true"))
            #expect(daemon.log.contains("state: dropped 1 entries, such as settings/wifi value=maybe: "))
        }
    }

    /// The state's directory cannot be created (its parent is a file): the daemon
    /// logs, keeps serving, and `save` says why.
    @Test func aFailingWriteIsLoggedAndSaveAnswersERR() async throws {
        let directory = try TempDirectory()
        try "".write(toFile: directory.file("blocker"), atomically: false, encoding: .utf8)
        let state = directory.file("blocker/menud/state")
        try await withDaemon(arguments: ["--state", state], directory: directory) { daemon throws in
            #expect(try daemon.request("set settings/wifi off").isOK)
            let reply = try daemon.request("save")
            #expect(reply.errorCode == "save-failed")
            #expect(try daemon.request("ping").isOK)
            try await waitUntil("the failed write to be logged") { daemon.log.contains("cannot save state") }
        }
    }

    /// `save` writes the file now, even on a first run in which nothing changed:
    /// whoever asked finds it there.
    @Test func saveWritesTheFileEvenWithNothingChanged() async throws {
        let directory = try TempDirectory()
        try await withDaemon(directory: directory) { daemon throws in
            #expect(!directory.contains("state"))
            #expect(try daemon.request("save").isOK)
            #expect(directory.contains("state"))
        }
    }

    @Test func noStateWritesNothing() async throws {
        let directory = try TempDirectory()
        try await withDaemon(arguments: ["--no-state"], directory: directory) { daemon throws in
            #expect(try daemon.request("set settings/wifi off").isOK)
            #expect(try daemon.request("save").errorCode == "save-failed")
        }
        #expect(!directory.contains("state"))
    }
}
