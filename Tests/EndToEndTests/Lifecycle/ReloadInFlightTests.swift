import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// A reload reads the config and builds the new model off the loop: clients are
/// served from the old menu meanwhile, what they change there is carried into the
/// new one, and a save that lands while the file is read is one reload of the file
/// as saved. The daemon's test gate (a FIFO it opens once it has read the config)
/// holds a reload in flight for as long as a test needs.
@Suite(.ownThread) struct ReloadInFlightTests {
    static let original = ConfigReloadTests.original
    static let changed = ConfigReloadTests.changed
    /// The fixture with another node added under `settings`.
    static let changedTwice = original.replacingOccurrences(
        of: "        value: workstation\n",
        with:
            "        value: workstation\n      - id: brightness\n        title: Brightness\n        type: range\n        value: 70\n"
    )

    /// A daemon on the fixture whose reloads wait at a gate, with a `config` subscriber.
    private func withGatedDaemon(
        watch: Bool, _ body: (TestDaemon, String, String, UnixSocketConnection) async throws -> Void
    ) async throws {
        let gateDirectory = try TempDirectory()
        let gate = gateDirectory.file("gate")
        #expect(mkfifo(gate, 0o600) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["MENUD_TEST_RELOAD_GATE"] = gate
        try await ConfigReloadTests.withConfigDaemon(watch: watch, topics: "config", environment: environment)
        {
            daemon, config, subscriber in
            try await body(daemon, config, gate, subscriber)
        }
    }

    /// Lets a reload waiting at the gate go on; false when none waits there.
    private func passGate(_ gate: String) -> Bool {
        let fd = open(gate, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    private func openGate(_ gate: String) async throws {
        try await waitUntil("a reload to wait at the gate") { passGate(gate) }
    }

    private func row(_ daemon: TestDaemon, _ path: String) throws -> RowRecord? {
        try daemon.request("get \(path)").lines.lazy.compactMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))
        }
        .first
    }

    private func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    @Test func clientsAreServedFromTheOldMenuWhileAReloadRuns() async throws {
        try await withGatedDaemon(watch: false) { daemon, config, gate, subscriber in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            let asker = try daemon.connect()
            try asker.send("reload\n")
            try await waitUntil("the reload to start") { daemon.log.contains("reloading (reload command)") }
            // The reload holds at the gate: the old menu answers, and takes changes.
            #expect(try daemon.request("get settings/volume").errorCode == "no-such-node")
            #expect(try daemon.request("expand apps").isOK)
            #expect(try daemon.request("set settings/hostname during").isOK)
            #expect(try daemon.request("ping").isOK)
            try await openGate(gate)
            let reply = try asker.readReply()
            #expect(reply.isOK, "reload: \(reply.terminator)")
            #expect(try subscriber.readEventGroup().records.first == "config\treloaded\t\(config)")
            // The new menu, with what was changed while it was read.
            #expect(try daemon.request("get settings/volume").isOK)
            let apps = try #require(try row(daemon, "apps"))
            #expect(apps.state == "expanded")
            let hostname = try #require(try row(daemon, "settings/hostname"))
            #expect(hostname.value == "during")
        }
    }

    /// The reload's worker thread gives way to the loop: it runs at a higher nice value, where the
    /// loop's thread stays at the nice it started with.
    @Test func theReloadRunsOnAThreadThatGivesWay() async throws {
        try await withGatedDaemon(watch: false) { daemon, _, gate, _ in
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
            try await openGate(gate)
            #expect(try asker.readReply().isOK)
            #expect(nices().values.contains { $0 > main }, "\(nices())")
            #expect(nices()[loopThread] == main)
        }
    }

    /// A reload asked for while another runs reads the file as it is then: it gets a
    /// run of its own, after the one under way.
    @Test func aReloadAskedForWhileOneRunsGetsARunOfItsOwn() async throws {
        try await withGatedDaemon(watch: false) { daemon, config, gate, subscriber in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            let first = try daemon.connect()
            try first.send("reload\n")
            try await waitUntil("the first reload to start") {
                daemon.log.contains("reloading (reload command)")
            }
            // Renamed into place: the first run reads one file or the other, whole.
            try Self.changedTwice.write(toFile: config, atomically: true, encoding: .utf8)
            let second = try daemon.connect()
            try second.send("reload\n")
            #expect(try daemon.request("ping").isOK)
            try await openGate(gate)
            let firstReply = try first.readReply()
            #expect(firstReply.isOK, "\(firstReply)")
            #expect(try subscriber.readEventGroup().records.first == "config\treloaded\t\(config)")
            // The second has not been answered by the first run: it waits at the gate.
            try await openGate(gate)
            #expect(try second.readReply().isOK)
            #expect(try subscriber.readEventGroup().records.first == "config\treloaded\t\(config)")
            #expect(try daemon.request("get settings/brightness").isOK)
            #expect(try daemon.request("get settings/volume").errorCode == "no-such-node")
            #expect(count("reloading (reload command)", in: daemon.log) == 2)
        }
    }

    /// Saved again while the first save is read: the menu goes straight to the second
    /// save, in one reload; the first is never served.
    @Test func aSaveWhileTheFileIsReadIsOneReloadOfTheLastSave() async throws {
        try await withGatedDaemon(watch: true) { daemon, config, gate, subscriber in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            try await waitUntil("the watch's reload to start") {
                daemon.log.contains("reloading (config file changed)")
            }
            try Self.changedTwice.write(toFile: config, atomically: false, encoding: .utf8)
            try await waitUntil("the watch to see the second save") {
                daemon.log.contains("while a reload is under way")
            }
            // The run read the first save or the second, and reads again if the first.
            try await waitUntil("the second save to be served") {
                _ = passGate(gate)
                return try daemon.request("get settings/brightness").isOK
            }
            let group = try subscriber.readEventGroup()
            #expect(group.records.first == "config\treloaded\t\(config)")
            #expect(!group.records.joined(separator: "\n").contains("volume"))
            // Nothing more was published: the next line is the ping's reply.
            try subscriber.send("ping\n")
            #expect(try subscriber.readLine() == "OK")
            #expect(count("reloaded \(config)", in: daemon.log) == 1)
        }
    }

    /// Times set to what they were are an event on the file, but no new config.
    @Test func anEventThatLeavesTheFileAsItWasReloadsNothing() async throws {
        try await withGatedDaemon(watch: true) { daemon, config, _, subscriber in
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
