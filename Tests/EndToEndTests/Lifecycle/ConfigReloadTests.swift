import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// Reload by command, by SIGHUP and by the config file changing on disk: a broken
/// config keeps the old menu, a changed one is swapped in with the user's state.
@Suite(.ownThread) struct ConfigReloadTests {
    static let original = try! String(contentsOfFile: TestPaths.fixture("menu.yaml"), encoding: .utf8)
    /// The fixture with a node added under the open `settings` group.
    static let changed = original.replacingOccurrences(
        of: "        value: workstation\n",
        with:
            "        value: workstation\n      - id: volume\n        title: Volume\n        type: range\n        value: 30\n"
    )
    static let broken = "menu:\n  - id: apps\n    titel: Applications\n"

    enum Trigger: String, CaseIterable, CustomStringConvertible {
        case fileRewritten, fileRenamedIntoPlace, sighup
        var description: String { rawValue }
    }

    /// Changes the config as the trigger says: an in-place write, an editor's
    /// write-then-rename, or a write nobody watches followed by SIGHUP.
    private func apply(_ text: String, to config: String, by trigger: Trigger, daemon: TestDaemon) throws {
        switch trigger {
        case .fileRewritten:
            try text.write(toFile: config, atomically: false, encoding: .utf8)
        case .fileRenamedIntoPlace:
            let temporary = config + ".swp"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            #expect(rename(temporary, config) == 0)
        case .sighup:
            try text.write(toFile: config, atomically: false, encoding: .utf8)
            daemon.signal(SIGHUP)
        }
    }

    /// With `watch` false the daemon is started with `--no-watch`, so that only SIGHUP
    /// can reload it.
    /// The subscriber takes `topics`.
    static func withConfigDaemon(
        watch: Bool = true, topics: String = "config value",
        _ body: (TestDaemon, String, UnixSocketConnection) async throws -> Void
    ) async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try Self.original.write(toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: directory, watch: watch) {
            daemon in
            if watch { try await waitUntil("the watcher to start") { daemon.log.contains("watching") } }
            let subscriber = try daemon.connect()
            try subscriber.subscribe(topics)
            try await body(daemon, config, subscriber)
        }
    }

    @Test(arguments: Trigger.allCases)
    func aChangedConfigIsSwappedInKeepingState(_ trigger: Trigger) async throws {
        try await Self.withConfigDaemon(watch: trigger != .sighup) { daemon, config, subscriber in
            #expect(try daemon.request("set settings/hostname kept").isOK)
            #expect(try subscriber.readEventGroup().records == ["value\tsettings/hostname\tkept"])
            try apply(Self.changed, to: config, by: trigger, daemon: daemon)
            let group = try subscriber.readEventGroup()
            #expect(
                group.records == [
                    "config\treloaded\t\(config)", "splice\t5\t0\t1", "value\tsettings/volume\t30",
                ])
            let rows = try daemon.request("rows settings").lines.compactMap {
                RowRecord(fields: ProtocolFields.fields(of: $0))
            }
            #expect(rows.map(\.path).last == "settings/volume")
            #expect(rows.first { $0.path == "settings/hostname" }?.value == "kept")
        }
    }

    /// `reload` answers first and tells subscribers after, as every command does: a
    /// subscriber that asks reads its reply, then the event group.
    @Test func aReloadAnswersBeforeItTellsSubscribers() async throws {
        try await Self.withConfigDaemon(watch: false) { daemon, config, subscriber in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            try subscriber.send("reload\n")
            var lines: [String] = []
            while let line = try subscriber.readLine() {
                lines.append(line)
                if line.hasPrefix("event"), line.hasSuffix("\tend") { break }
            }
            let ok = try #require(lines.firstIndex(of: "OK"), "\(lines)")
            #expect(lines[..<ok].allSatisfy { !$0.hasPrefix("event") }, "\(lines)")
            #expect(lines[..<ok].first == "config\treloaded\t\(config)", "\(lines)")
            #expect(lines[(ok + 1)...].first?.hasPrefix("event") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("event") && $0.contains("config\treloaded") }, "\(lines)")
        }
    }

    @Test(arguments: Trigger.allCases)
    func aBrokenConfigKeepsTheOldMenuAndReportsItsErrors(_ trigger: Trigger) async throws {
        try await Self.withConfigDaemon(watch: trigger != .sighup) { daemon, config, subscriber in
            try apply(Self.broken, to: config, by: trigger, daemon: daemon)
            let group = try subscriber.readEventGroup()
            #expect(
                group.records == [
                    "config\tfailed\t\(config):3:5: unknown key 'titel' (did you mean 'title'?)"
                ])
            #expect(try daemon.request("get settings/wifi").isOK)
            #expect(daemon.log.contains("keeping the old menu"))
        }
    }

    @Test func theReloadCommandAnswersEveryError() async throws {
        try await Self.withConfigDaemon { daemon, config, _ in
            try "menu:\n  - id: a\n    titel: A\n  - id: a\n    title: B\n".write(
                toFile: config + ".new", atomically: false, encoding: .utf8)
            // Keep the watcher out of it: the command reloads the file as it is now.
            let result = try daemon.menuctl(["reload"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Config reloaded: \(config)\n"), "\(result)")
            #expect(rename(config + ".new", config) == 0)
            try await waitUntil("the watcher's failed reload") { daemon.log.contains("keeping the old menu") }
            let reply = try daemon.request("reload")
            #expect(reply.errorCode == "reload-failed")
            let message = ProtocolFields.unescape(Substring(reply.errorMessage ?? ""))
            // The misspelt title, and the duplicate id; not the title as missing too.
            #expect(message.split(separator: "\n").count == 2, "\(message)")
            #expect(message.hasPrefix("\(config):3:5: unknown key 'titel'"), "\(message)")
            #expect(try daemon.request("get apps/term").isOK)
        }
    }

    /// A config with eight thousand errors (over 1 MiB of them, past the subscribers'
    /// bound; long unknown keys make long messages, so the config stays quick to
    /// read): clients get the first hundred and a count, so that no subscriber is
    /// dropped; the log has them all.
    @Test func aConfigWithManyErrorsSendsTheFirstHundred() async throws {
        try await Self.withConfigDaemon(watch: false) { daemon, config, subscriber in
            var text = "menu:\n"
            let key = String(repeating: "k", count: 1000)
            for i in 0..<4000 { text += "  - {id: n\(i), \(key): N}\n" }
            try text.write(toFile: config, atomically: false, encoding: .utf8)
            // Megabytes of errors under a sanitizer, beside a whole suite: the reads
            // get a wider bound than the harness's 20 s (a bound, not a time asserted).
            subscriber.setReceiveTimeout(seconds: 180)
            let asker = try daemon.connect()
            asker.setReceiveTimeout(seconds: 180)
            try asker.send("reload\n")
            let reply = try asker.readReply()
            #expect(reply.errorCode == "reload-failed")
            let message = ProtocolFields.unescape(Substring(reply.errorMessage ?? ""))
            let lines = message.split(separator: "\n")
            #expect(lines.count == 101, "\(lines.count) lines")
            #expect(lines.last.map(String.init)?.hasPrefix("… and ") == true, "\(lines.last ?? "")")
            let group = try subscriber.readEventGroup()
            #expect(group.records.count == 1 && group.records[0].hasPrefix("config\tfailed\t\(config):2:"))
            // Still subscribed: the next change reaches it.
            #expect(try daemon.request("set settings/hostname after").isOK)
            #expect(try subscriber.readEventGroup().records == ["value\tsettings/hostname\tafter"])
            #expect(daemon.log.contains("\(config):4001:"), "the log keeps every error")
        }
    }

    /// `reload` pipelined after other requests in one read: every request keeps its
    /// reply (the reload's records once replaced the replies written before it).
    @Test func aPipelinedReloadKeepsTheRepliesBeforeIt() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send("ping\nget apps\nreload\nping\n")
            let replies = try (0..<4).map { _ in try connection.readReply() }
            #expect(replies.allSatisfy { $0.isOK }, "\(replies)")
            #expect(replies[0].lines.isEmpty && replies[3].lines.isEmpty)
            #expect(replies[1].lines.count == 1 && replies[1].lines[0].hasPrefix("row\t"), "\(replies[1])")
            #expect(replies[2].lines.first?.hasPrefix("config\treloaded\t") == true, "\(replies[2])")
        }
    }

    /// The reload's worker thread gives way to the loop: it runs at a higher nice value, where the
    /// loop's thread stays at the nice it started with.
    @Test func theReloadRunsOnAThreadThatGivesWay() async throws {
        try await Self.withConfigDaemon(watch: false) { daemon, _, _ in
            func nices() -> [String: Int] {
                let tasks =
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []
                return tasks.reduce(into: [:]) { nices, task in
                    guard
                        let stat = try? String(
                            contentsOfFile: "/proc/\(daemon.pid)/task/\(task)/stat", encoding: .utf8),
                        let close = stat.lastIndex(of: ")")
                    else { return }
                    // After "pid (comm) ": field 19 of stat, the 17th after the name.
                    let fields = stat[stat.index(after: close)...].split(separator: " ")
                    nices[task] = fields.count > 16 ? Int(fields[16]) : nil
                }
            }
            let loopThread = String(daemon.pid)
            let main = try #require(nices()[loopThread])
            let asker = try daemon.connect()
            try asker.send("reload\n")
            #expect(try asker.readReply().isOK)
            #expect(nices().values.contains { $0 > main }, "\(nices())")
            #expect(nices()[loopThread] == main)
        }
    }

    /// Times set to what they were are an event on the file, but no new config.
    @Test func anEventThatLeavesTheFileAsItWasReloadsNothing() async throws {
        try await Self.withConfigDaemon(topics: "config") { daemon, config, subscriber in
            #expect(try run("/usr/bin/touch", ["-r", config, config]).status == 0)
            try await waitUntil("the watch to look at the file") {
                daemon.log.contains("reads as it did at the last reload; not reloaded")
            }
            try subscriber.send("ping\n")
            #expect(try subscriber.readLine() == "OK")
            #expect(!daemon.log.contains("reloading"))
        }
    }
}
