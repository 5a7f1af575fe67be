import Dispatch
import Foundation
import MenuProtocol
import TestSupport
import Testing

@testable import menud

/// A reload reads the config and builds the new model off the loop: clients are
/// served from the old menu meanwhile, what they change there is carried into the
/// new one, and a save that lands while the file is read is one reload of the file
/// as saved. The reload's gate, which the tests set, holds a run on its worker thread
/// once it has read the file, for as long as a test needs.
@Suite(.ownThread) struct ReloadInFlightTests {
    static let original = """
        menu:
          - id: apps
            title: Applications
            children:
              - {id: term, title: Terminal}
          - id: settings
            title: Settings
            expanded: true
            children:
              - id: hostname
                title: "Hostname: {value}"
                type: text
                value: workstation

        """
    /// With a node added under the open `settings` group.
    static let changed = original + "      - {id: volume, title: Volume, type: range, value: 30}\n"
    /// With another.
    static let changedTwice =
        original + "      - {id: brightness, title: Brightness, type: range, value: 70}\n"

    /// The runs that reach the gate wait there until let through, each once.
    final class HeldReloads: Sendable {
        private let arrived = DispatchSemaphore(value: 0)
        private let passes = DispatchSemaphore(value: 0)

        /// Bounds a wait that would hang a broken daemon, making it a failure; no
        /// outcome depends on it.
        static let patience = DispatchTimeInterval.seconds(120)

        var gate: @Sendable () -> Void {
            { [arrived, passes] in
                arrived.signal()
                _ = passes.wait(timeout: .now() + Self.patience)
            }
        }

        /// Blocks until a run waits at the gate (this suite has a thread of its own);
        /// false when none came.
        func waitForARun() -> Bool { arrived.wait(timeout: .now() + Self.patience) == .success }

        func letOneThrough() { passes.signal() }
    }

    /// A harness serving `original` from a file, whose reloads wait at a gate, with a
    /// subscriber of `config` events.
    private func withHeldReloads(
        _ body: (ConnectionHarness, String, HeldReloads, MemoryTransport) throws -> Void
    ) throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try Self.original.write(toFile: config, atomically: false, encoding: .utf8)
        let harness = try ConnectionHarness(configFile: config)
        let held = HeldReloads()
        harness.service.menu.reloads.gate = held.gate
        let (subscriber, events) = harness.connect()
        subscriber.received("subscribe config\n")
        // Whatever the body did, every run is let through at the end, and the loop
        // runs until the pool's last jobs (the old models freed) are back: a job left
        // in flight would hold the loop past the test.
        defer {
            for _ in 0..<4 { held.letOneThrough() }
            harness.loop.run()
        }
        try body(harness, config, held, events)
    }

    private func row(_ harness: ConnectionHarness, _ path: String) -> RowRecord? {
        let (client, transport) = harness.connect()
        client.received("get \(path)\n")
        return transport.lines.lazy.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }.first
    }

    private func answer(_ harness: ConnectionHarness, _ request: String) -> [String] {
        let (client, transport) = harness.connect()
        client.received(request + "\n")
        return replies(transport.lines).last ?? []
    }

    private func reloadedGroups(_ events: MemoryTransport) -> Int {
        events.lines.filter { $0.contains("\tconfig\treloaded\t") }.count
    }

    @Test func clientsAreServedFromTheOldMenuWhileAReloadRuns() throws {
        try withHeldReloads { harness, config, held, events in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            let (asker, askerTransport) = harness.connect()
            asker.received("reload\n")
            try #require(held.waitForARun())
            // The run holds at the gate: the old menu answers, and takes changes.
            #expect(answer(harness, "get settings/volume").last?.hasPrefix("ERR no-such-node") == true)
            #expect(answer(harness, "expand apps").last == "OK")
            #expect(answer(harness, "set settings/hostname during").last == "OK")
            #expect(replies(askerTransport.lines).isEmpty)
            held.letOneThrough()
            harness.runLoop { !replies(askerTransport.lines).isEmpty }
            #expect(replies(askerTransport.lines).first?.last == "OK")
            #expect(events.lines.contains { $0.hasSuffix("\tconfig\treloaded\t\(config)") })
            // The new menu, with what was changed while it was read.
            #expect(row(harness, "settings/volume") != nil)
            #expect(row(harness, "apps")?.state == "expanded")
            #expect(row(harness, "settings/hostname")?.value == "during")
        }
    }

    /// A reload asked for while another runs reads the file as it is then: it gets a
    /// run of its own, after the one under way.
    @Test func aReloadAskedForWhileOneRunsGetsARunOfItsOwn() throws {
        try withHeldReloads { harness, config, held, events in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            let (first, firstTransport) = harness.connect()
            first.received("reload\n")
            try #require(held.waitForARun())
            // Renamed into place: the first run has read the file before.
            try Self.changedTwice.write(toFile: config, atomically: true, encoding: .utf8)
            let (second, secondTransport) = harness.connect()
            second.received("reload\n")
            #expect(answer(harness, "ping") == ["OK"])
            held.letOneThrough()
            harness.runLoop { !replies(firstTransport.lines).isEmpty }
            #expect(replies(firstTransport.lines).first?.last == "OK")
            #expect(reloadedGroups(events) == 1)
            #expect(row(harness, "settings/volume") != nil)
            // The second has not been answered by the first run: its own waits.
            try #require(held.waitForARun())
            #expect(replies(secondTransport.lines).isEmpty)
            held.letOneThrough()
            harness.runLoop { !replies(secondTransport.lines).isEmpty }
            #expect(replies(secondTransport.lines).first?.last == "OK")
            #expect(reloadedGroups(events) == 2)
            #expect(row(harness, "settings/brightness") != nil)
            #expect(row(harness, "settings/volume") == nil)
        }
    }

    /// Saved again while the first save is read: the menu goes straight to the second
    /// save, in one reload; the first is never served.
    @Test func aSaveWhileTheFileIsReadIsOneReloadOfTheLastSave() throws {
        try withHeldReloads { harness, config, held, events in
            try Self.changed.write(toFile: config, atomically: false, encoding: .utf8)
            // As the config watch does when the file changes.
            harness.service.configFileChanged(because: "config file changed")
            try #require(held.waitForARun())
            try Self.changedTwice.write(toFile: config, atomically: false, encoding: .utf8)
            harness.service.configFileChanged(because: "config file changed")
            #expect(harness.service.menu.reloads.changedMeanwhile)
            held.letOneThrough()
            // The run read the first save: once it is back on the loop the file is
            // read again, and that run too waits at the gate.
            harness.runLoop { !harness.service.menu.reloads.changedMeanwhile }
            try #require(held.waitForARun())
            #expect(reloadedGroups(events) == 0)
            held.letOneThrough()
            harness.runLoop { reloadedGroups(events) > 0 }
            #expect(row(harness, "settings/brightness") != nil)
            #expect(row(harness, "settings/volume") == nil)
            #expect(!events.lines.contains { $0.contains("volume") })
            // Nothing more runs.
            #expect(harness.service.menu.reloads.running == nil)
            #expect(reloadedGroups(events) == 1)
        }
    }
}
