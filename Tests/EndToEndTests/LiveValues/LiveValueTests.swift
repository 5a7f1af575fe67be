import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// Values that follow the system (`value-cmd`, `value-listen`), against
/// Fixtures/system.yaml, whose "system" is files in the daemon's directory.
@Suite(.ownThread) struct LiveValueTests {
    private func row(_ daemon: TestDaemon, _ path: String) throws -> RowRecord? {
        try daemon.request("get \(path)").lines.lazy.compactMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))
        }
        .first
    }

    private func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private func append(_ line: String, to file: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Runs `body` with the fake system's files written first.
    private func withSystem(
        volume: String = "40", arguments: [String] = [], directory: TempDirectory? = nil,
        _ body: (TestDaemon) async throws -> Void
    ) async throws {
        let directory = try directory ?? TempDirectory()
        try (volume + "\n").write(toFile: directory.file("volume"), atomically: true, encoding: .utf8)
        for file in ["wifi-events", "output-events", "limited-events"] where !directory.contains(file) {
            try "".write(toFile: directory.file(file), atomically: true, encoding: .utf8)
        }
        try await withDaemon(
            config: TestPaths.fixture("system.yaml"), arguments: arguments, directory: directory, body)
    }

    /// Reads event groups until one has a record for `path`'s value, and returns it.
    private func nextValue(of path: String, on events: UnixSocketConnection) throws -> [String] {
        while true {
            for record in try events.readEventGroup().records {
                let fields = record.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                if fields.first == "value", fields.count >= 3, fields[1] == path { return fields }
            }
        }
    }

    /// The value records subscribers get before the next one for `path`.
    private func values(before path: String, on events: UnixSocketConnection) throws -> [[String]] {
        var before: [[String]] = []
        while true {
            for record in try events.readEventGroup().records {
                let fields = record.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.first == "value", fields.count >= 3 else { continue }
                if fields[1] == path { return before }
                before.append(fields)
            }
        }
    }

    @Test func aValueCommandIsReadAtStartAndWhenItsGroupOpens() async throws {
        try await withSystem { daemon in
            try await waitUntil("the volume read at start") {
                let row = try row(daemon, "sound/volume")
                return row?.value == "40" && row?.stale == false
            }
            try "65\n".write(toFile: daemon.directory.file("volume"), atomically: true, encoding: .utf8)
            #expect(try daemon.request("expand sound").isOK)
            try await waitUntil("the volume read again when its group opened") {
                try row(daemon, "sound/volume")?.value == "65"
            }
            #expect(try daemon.request("get sound").lines.first?.contains("Sound") == true)
            // A value from the system is not a user's change.
            #expect(!daemon.directory.contains("volume-hook"))
        }
    }

    @Test func aListenersLinesAreTheValueAndBadOnesMarkItStale() async throws {
        try await withSystem { daemon in
            let events = try daemon.connect()
            try events.subscribe("value")
            let file = daemon.directory.file("wifi-events")
            try append("on", to: file)
            #expect(try nextValue(of: "wifi", on: events) == ["value", "wifi", "on"])
            try append("maybe", to: file)
            #expect(try nextValue(of: "wifi", on: events) == ["value", "wifi", "on", "stale"])
            #expect(try row(daemon, "wifi")?.stale == true)
            try await waitUntil("the refusal in the log") {
                daemon.log.contains("value wifi: refused the line: expected true, false, yes, no, on or off")
            }
            try append("  OFF  ", to: file)
            #expect(try nextValue(of: "wifi", on: events) == ["value", "wifi", "off"])
            #expect(try row(daemon, "wifi")?.stale == false)
            // A choice's value may come as an option's title.
            try append("Headphones", to: daemon.directory.file("output-events"))
            #expect(try nextValue(of: "output", on: events) == ["value", "output", "headphones"])
            #expect(!daemon.directory.contains("wifi-hook"))
        }
    }

    /// Off the step is shown as it is; outside the bounds is clamped and logged.
    @Test func aRangeFromTheSystemIsClampedButNotRounded() async throws {
        try await withSystem(volume: "42") { daemon in
            try await waitUntil("42, off the step of 5, shown as it is") {
                try row(daemon, "sound/volume")?.value == "42"
            }
            try "150%\n".write(toFile: daemon.directory.file("volume"), atomically: true, encoding: .utf8)
            #expect(try daemon.request("collapse sound").isOK)
            #expect(try daemon.request("expand sound").isOK)
            try await waitUntil("150 clamped to 100") { try row(daemon, "sound/volume")?.value == "100" }
            #expect(daemon.log.contains("value sound/volume: 150 is outside the bounds; showing '100'"))
        }
    }

    /// The user's value shows at once and runs `on-change`; the system's answer to
    /// it changes nothing when it agrees, and wins when it does not (the cap at 80).
    @Test func aUsersValueShowsAtOnceAndTheSystemsAnswerWins() async throws {
        try await withSystem { daemon in
            try await waitUntil("the volume read at start") { try row(daemon, "sound/volume")?.value == "40" }
            let events = try daemon.connect()
            try events.subscribe("value")
            let reads = lines(daemon.directory.file("volume-reads")).count
            #expect(try daemon.request("set sound/volume 55").lines == ["value\tsound/volume\t55"])
            #expect(try nextValue(of: "sound/volume", on: events) == ["value", "sound/volume", "55"])
            try await waitUntil("the hook ran, then the value was read again") {
                lines(daemon.directory.file("volume-hook")) == ["55"]
                    && lines(daemon.directory.file("volume-reads")).count > reads
            }
            // The echo of 55 sent nothing before the sentinel's event.
            #expect(try daemon.request("set wifi on").isOK)
            #expect(try values(before: "wifi", on: events).filter { $0[1] == "sound/volume" }.isEmpty)

            #expect(try daemon.request("set sound/limited 95").lines == ["value\tsound/limited\t95"])
            #expect(try nextValue(of: "sound/limited", on: events) == ["value", "sound/limited", "95"])
            #expect(try nextValue(of: "sound/limited", on: events) == ["value", "sound/limited", "80"])
            #expect(try row(daemon, "sound/limited")?.value == "80")
        }
    }

    /// What the system reports while the user's value is being applied (here the old
    /// value, then the new) is held until `on-change` ends: the row does not flicker.
    @Test func whatTheSystemSaysDuringOnChangeDoesNotFlicker() async throws {
        try await withSystem { daemon in
            let events = try daemon.connect()
            try events.subscribe("value")
            #expect(
                try daemon.request("set sound/echo 60").lines.first?.hasPrefix("value\tsound/echo\t60")
                    == true)
            #expect(try nextValue(of: "sound/echo", on: events).prefix(3) == ["value", "sound/echo", "60"])
            // The hook ends once the daemon has read both reports, the old value's on
            // its own (sound/echo in system.yaml): whatever the machine's speed, each
            // was read while the hook ran.
            try await waitUntil("the hook done; menud log: \(daemon.log)") {
                daemon.directory.contains("echo-hook")
            }
            #expect(try daemon.request("set wifi on").isOK)
            let flickers = try values(before: "wifi", on: events).filter {
                $0[1] == "sound/echo" && $0[2] != "60"
            }
            #expect(flickers.isEmpty, "\(flickers)")
        }
    }

    /// A restart reads the source rather than restoring what the state file says.
    @Test func aRestartReadsTheSystemRatherThanTheStateFile() async throws {
        let directory = try TempDirectory()
        try await withSystem(directory: directory) { daemon in
            try await waitUntil("the volume read") { try row(daemon, "sound/volume")?.value == "40" }
            #expect(try daemon.request("set sound/volume 55").isOK)
            #expect(try daemon.request("save").isOK)
        }
        #expect(try String(contentsOfFile: directory.file("state"), encoding: .utf8).contains("sound/volume"))
        try await withSystem(volume: "30", directory: directory) { daemon in
            try await waitUntil("the system's 30, not the saved 55") {
                try row(daemon, "sound/volume")?.value == "30"
            }
        }
    }

    @Test func aNodeIsStaleUntilItsSourceAnswers() async throws {
        try await withSystem { daemon in
            let slow = try row(daemon, "sound/slow")
            #expect(slow?.stale == true)
            // Field 15; the access key, field 16, follows it.
            #expect(slow.map { Array($0.fields.dropFirst(14).prefix(1)) } == ["stale"])
            try "".write(toFile: daemon.directory.file("go"), atomically: true, encoding: .utf8)
            try await waitUntil("the answer") {
                let row = try row(daemon, "sound/slow")
                return row?.value == "30" && row?.stale == false
            }
        }
    }

    /// A listener that keeps exiting is started again after 1 s, 2 s, 4 s…, each
    /// step logged once.
    @Test func aCrashingListenerIsStartedAgainWithBackOff() async throws {
        try await withSystem { daemon in
            try await waitUntil("three runs") { lines(daemon.directory.file("crash-runs")).count >= 3 }
            let log = daemon.log
            for delay in ["1", "2"] {
                let line =
                    "value-listen crashing: '\(ValueListenerCommand.crashing)' exited with status 3; "
                    + "starting it again in \(delay) s"
                #expect(log.components(separatedBy: line).count == 2, "\(line)\n\(log)")
            }
            #expect(try row(daemon, "crashing")?.stale == true)
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// A listener that exits leaving a child that holds its pipe open (in a session
    /// of its own, so that its group's signal misses it) is still seen to end, and
    /// is started again.
    @Test func aListenerWhoseChildKeepsThePipeOpenIsStartedAgain() async throws {
        try await withSystem { daemon in
            try await waitUntil("two runs") { lines(daemon.directory.file("fork-runs")).count >= 2 }
            #expect(try row(daemon, "forking")?.value == "on")
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// A line over 64 KiB is dropped, one that is not UTF-8 is refused, and the
    /// next good line is taken.
    @Test func aListenersHostileLinesAreDroppedAndTheNextOneTaken() async throws {
        try await withSystem { daemon in
            try await waitUntil("the good line") { try row(daemon, "hostile")?.value == "fine" }
            try await waitUntil("both refusals in the log") {
                daemon.log.contains("a line longer than 64 KiB; dropped it")
            }
            #expect(try row(daemon, "hostile")?.stale == false)
        }
    }

    /// A reload keeps a listener whose command is unchanged, and stops one whose
    /// node is gone; a stopped daemon ends its listeners.
    @Test func aReloadKeepsAnUnchangedListenerAndTheStopEndsIt() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try String(contentsOfFile: TestPaths.fixture("system.yaml"), encoding: .utf8)
            .write(toFile: config, atomically: true, encoding: .utf8)
        try "40\n".write(toFile: directory.file("volume"), atomically: true, encoding: .utf8)
        try "".write(toFile: directory.file("wifi-events"), atomically: true, encoding: .utf8)
        var listener: Int32 = 0
        try await withDaemon(config: config, directory: directory) { daemon in
            try await waitUntil("the listener's pid") { lines(directory.file("wifi-listener")).count == 1 }
            listener = Int32(lines(directory.file("wifi-listener"))[0])!
            #expect(try daemon.request("reload").isOK)
            try append("on", to: directory.file("wifi-events"))
            try await waitUntil("the kept listener's line") { try row(daemon, "wifi")?.value == "on" }
            #expect(lines(directory.file("wifi-listener")).count == 1)
            #expect(isRunning(listener))

            // Without the wifi node, its listener ends.
            let text = try String(contentsOfFile: config, encoding: .utf8)
            let start = text.range(of: "  - id: wifi\n")!.lowerBound
            let end = text.range(of: "  - id: output\n")!.lowerBound
            try (String(text[..<start]) + String(text[end...])).write(
                toFile: config, atomically: true, encoding: .utf8)
            #expect(try daemon.request("reload").isOK)
            try await waitUntil("the listener gone") { !isRunning(listener) }
            // Reaped, as the daemon runs on: not left a zombie until it exits.
            try await waitUntil("the stopped listener reaped") {
                !FileManager.default.fileExists(atPath: "/proc/\(listener)")
            }
        }
        #expect(listener > 0)
    }

    /// A reload that changes a node's `value-cmd` while the old one runs: the old
    /// command's line is dropped, and the new command runs once the old has ended.
    @Test func aValueCommandChangedWhileItRunsRunsWhenTheOldEnds() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        let text = try String(contentsOfFile: TestPaths.fixture("system.yaml"), encoding: .utf8)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        try "40\n".write(toFile: directory.file("volume"), atomically: true, encoding: .utf8)
        let old = "value-cmd: while [ ! -e go ]; do sleep 0.05; done; echo 30"
        #expect(text.contains(old))
        try await withDaemon(config: config, directory: directory) { daemon in
            try await waitUntil("the slow command running") {
                ProcessEntry.all().contains { child in
                    child.parent == daemon.pid
                        && ((try? String(contentsOfFile: "/proc/\(child.pid)/cmdline", encoding: .utf8)) ?? "")
                            .contains("-e go")
                }
            }
            try text.replacingOccurrences(of: old, with: "value-cmd: echo 45").write(
                toFile: config, atomically: true, encoding: .utf8)
            #expect(try daemon.request("reload").isOK)
            try "".write(toFile: directory.file("go"), atomically: true, encoding: .utf8)
            try await waitUntil("the new command's value") { try row(daemon, "sound/slow")?.value == "45" }
        }
    }

    /// A reading is not saved: the state file is not restored into a node that reads
    /// the system, and rewriting it for each reading would wake the disk as often as a
    /// value is polled.
    @Test func readingsDoNotRewriteTheStateFile() async throws {
        try await withSystem { daemon in
            let events = try daemon.connect()
            try events.subscribe("value")
            let state = daemon.directory.file("state")
            #expect(try daemon.request("save").isOK)
            let written = try FileManager.default.attributesOfItem(atPath: state)
            let file = daemon.directory.file("wifi-events")
            for line in ["on", "off", "on"] {
                try append(line, to: file)
                #expect(try nextValue(of: "wifi", on: events) == ["value", "wifi", line])
            }
            // A write waits 250 ms for more changes to join it (Persistence.saveDelay):
            // one that a reading asked for would have come within this second.
            try await Task.sleep(for: .seconds(1))
            let now = try FileManager.default.attributesOfItem(atPath: state)
            #expect(now[.systemFileNumber] as? Int == written[.systemFileNumber] as? Int)
            #expect(now[.modificationDate] as? Date == written[.modificationDate] as? Date)
            // A user's change is saved as ever, the value read with it.
            #expect(try daemon.request("set output headphones").isOK)
            try await waitUntil("the user's change written") {
                let text = (try? String(contentsOfFile: state, encoding: .utf8)) ?? ""
                return text.contains("value output headphones\n")
            }
        }
    }

    @Test func theDaemonsStopEndsItsListeners() async throws {
        var listener: Int32 = 0
        try await withSystem { daemon in
            try await waitUntil("the listener's pid") {
                lines(daemon.directory.file("wifi-listener")).count == 1
            }
            listener = Int32(lines(daemon.directory.file("wifi-listener"))[0])!
            #expect(isRunning(listener))
        }
        try await waitUntil("the listener ended with the daemon") { !isRunning(listener) }
    }
}

/// Whether process `pid` runs: a zombie no longer does (the tests' PID 1 may not
/// reap the orphans it inherits).
private func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
}

/// The crashing listener's command, as the log quotes it.
private enum ValueListenerCommand {
    static let crashing = "echo run >> crash-runs; exit 3"
}
