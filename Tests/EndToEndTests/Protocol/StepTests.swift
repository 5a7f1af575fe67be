import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `step` and the `increase`/`decrease` moves against the real daemon and menuctl,
/// serving Fixtures/ranges.yaml: Volume 0...100 step 5 at 40 (with an on-change),
/// Brightness 10...100 without a step at 70, Balance -10...10 step 1 at 0, and the
/// toggle Mute.
@Suite(.ownThread) struct StepTests {
    private func withRangesDaemon(_ body: (TestDaemon) async throws -> Void) async throws {
        try await withDaemon(config: TestPaths.fixture("ranges.yaml"), body)
    }

    private func value(_ daemon: TestDaemon, _ path: String) throws -> String {
        let get = try daemon.menuctl(["--raw", "get", path]).stdout
        let fields = ProtocolFields.fields(of: get.trimmingCharacters(in: .newlines))
        return fields.count > 7 ? fields[7] : get
    }

    private func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func menuctlStepMovesARangeBySignedDeltas() async throws {
        try await withRangesDaemon { daemon throws in
            let up = try daemon.menuctl(["step", "display/volume"])
            #expect(up.status == 0 && up.stdout == "Volume: 45%\n", "\(up)")
            let more = try daemon.menuctl(["step", "display/volume", "+10"])
            #expect(more.status == 0 && more.stdout == "Volume: 55%\n", "\(more)")
            // A negative delta reaches the daemon without `--`: it is no option.
            let less = try daemon.menuctl(["step", "display/volume", "-5"])
            #expect(less.status == 0 && less.stdout == "Volume: 50%\n", "\(less)")
            let raw = try daemon.menuctl(["--raw", "step", "display/volume", "--", "-20"])
            #expect(raw.status == 0 && raw.stdout == "value\tdisplay/volume\t30\n", "\(raw)")
            let json = try daemon.menuctl(["--json", "step", "display/balance", "-3"])
            #expect(json.status == 0 && json.stdout.contains(#""value":"-3""#), "\(json)")
            #expect(try value(daemon, "display/volume") == "30")
        }
    }

    @Test func theWireTakesAPlainNegativeDelta() async throws {
        try await withRangesDaemon { daemon throws in
            #expect(try daemon.request("step display/volume -5").lines == ["value\tdisplay/volume\t35"])
            #expect(try daemon.request("step display/volume \"-5\"").lines == ["value\tdisplay/volume\t30"])
            // Clamped, then snapped to the step from min; a range without a step moves by
            // 1% of its span when no delta is given.
            #expect(try daemon.request("step display/volume +500").lines == ["value\tdisplay/volume\t100"])
            #expect(try daemon.request("step display/volume -2").lines.isEmpty)
            #expect(try daemon.request("step display/volume -7").lines == ["value\tdisplay/volume\t95"])
            #expect(
                try daemon.request("step display/brightness").lines == ["value\tdisplay/brightness\t70.9"])
            #expect(
                try daemon.request("step display/brightness -0.4").lines == [
                    "value\tdisplay/brightness\t70.5"
                ])
        }
    }

    @Test func aStepAtABoundAnswersOKAndSendsNoEvent() async throws {
        try await withRangesDaemon { daemon throws in
            let events = try daemon.connect()
            try events.subscribe("value")
            #expect(try daemon.request("set display/volume 100").lines == ["value\tdisplay/volume\t100"])
            let first = try events.readEventGroup()
            #expect(first.records == ["value\tdisplay/volume\t100"])

            #expect(try daemon.request("step display/volume") == ProtocolReply(lines: [], terminator: "OK"))
            #expect(
                try daemon.request("step display/volume +5") == ProtocolReply(lines: [], terminator: "OK"))
            // The next group the subscriber gets is the next change's: the steps at the
            // bound made none.
            #expect(try daemon.request("step display/volume -5").isOK)
            let next = try events.readEventGroup()
            #expect(next == EventGroup(sequence: first.sequence + 1, records: ["value\tdisplay/volume\t95"]))
        }
    }

    @Test func anUnsignedDeltaIsRefusedWithWhatToWrite() async throws {
        try await withRangesDaemon { daemon throws in
            #expect(
                try daemon.request("step display/volume 5").terminator
                    == "ERR invalid-value display/volume: '5' has no sign: write +5 to add or -5 to subtract")
            let menuctl = try daemon.menuctl(["step", "display/volume", "5"])
            #expect(
                menuctl.status == 1 && menuctl.stderr.contains("write +5 to add or -5 to subtract"),
                "\(menuctl)")
            #expect(
                try daemon.request("step display/volume loud").terminator
                    == "ERR invalid-value display/volume: expected a delta as +N or -N, got 'loud'")
            let two = try daemon.menuctl(["step", "display/volume", "+1", "+2"])
            #expect(two.status == 2 && two.stderr.contains("at most one delta"), "\(two)")
            #expect(try value(daemon, "display/volume") == "40")
        }
    }

    @Test func onlyARangeSteps() async throws {
        try await withRangesDaemon { daemon throws in
            #expect(
                try daemon.request("step display/mute").terminator
                    == "ERR not-a-range 'display/mute' is a toggle, not a range: use set")
            #expect(
                try daemon.request("step display +5").terminator
                    == "ERR not-a-range 'display' is a group, not a range")
            #expect(try daemon.request("step nowhere").terminator == "ERR no-such-node no node at 'nowhere'")
            let menuctl = try daemon.menuctl(["step", "display/mute"])
            #expect(menuctl.status == 1 && menuctl.stderr.contains("not-a-range"), "\(menuctl)")
        }
    }

    /// `set +5` once set 5; it now says to use `step`. `-5` stays a value.
    @Test func setRefusesARelativeValueAndPointsToStep() async throws {
        try await withRangesDaemon { daemon throws in
            #expect(
                try daemon.request("set display/volume +5").terminator
                    == "ERR invalid-value display/volume: '+5' is relative; use step display/volume +5")
            let menuctl = try daemon.menuctl(["set", "display/volume", "+5"])
            #expect(
                menuctl.status == 1
                    && menuctl.stderr.contains("'+5' is relative; use step display/volume +5"),
                "\(menuctl)")
            #expect(try value(daemon, "display/volume") == "40")
            let negative = try daemon.menuctl(["--raw", "set", "display/balance", "-5"])
            #expect(negative.status == 0 && negative.stdout == "value\tdisplay/balance\t-5\n", "\(negative)")
        }
    }

    /// A step is a change like `set`'s: its on-change runs with the new value.
    @Test func onChangeRunsAfterAStep() async throws {
        try await withRangesDaemon { daemon throws in
            let changes = daemon.directory.file("changes")
            #expect(try daemon.menuctl(["step", "display/volume"]).status == 0)
            try await waitUntil("the first on-change run") { lines(changes).count == 1 }
            #expect(lines(changes) == ["display/volume=45"])
            #expect(try daemon.menuctl(["step", "display/volume", "-15"]).status == 0)
            #expect(try daemon.menuctl(["nav", "increase"]).status == 0)  // the focus is on Display: nothing
            try await waitUntil("the second on-change run") { lines(changes).count == 2 }
            #expect(Set(lines(changes)) == ["display/volume=45", "display/volume=30"])
            // At the bound nothing changes, so nothing runs: the next run is the next change's.
            #expect(try daemon.menuctl(["step", "display/volume", "-100"]).status == 0)
            #expect(try daemon.menuctl(["step", "display/volume", "-5"]).status == 0)
            #expect(try daemon.menuctl(["step", "display/volume", "+5"]).status == 0)
            try await waitUntil("the runs of the changes") { lines(changes).count == 4 }
            #expect(
                Set(lines(changes)) == [
                    "display/volume=45", "display/volume=30", "display/volume=0", "display/volume=5",
                ])
        }
    }

    @Test func navIncreaseAndDecreaseStepTheFocusedRange() async throws {
        try await withRangesDaemon { daemon throws in
            let connection = try daemon.connect()
            let send = { (line: String) throws -> [String] in
                try connection.send(line + "\n")
                let reply = try connection.readReply()
                #expect(reply.isOK, "\(line): \(reply.terminator)")
                return reply.lines
            }
            _ = try send("focus display/volume")
            #expect(
                try send("nav increase") == ["focus\tdisplay\tdisplay/volume", "value\tdisplay/volume\t45"])
            #expect(
                try send("nav decrease") == ["focus\tdisplay\tdisplay/volume", "value\tdisplay/volume\t40"])
            #expect(
                try send("nav increase display") == [
                    "focus\tdisplay\tdisplay/volume", "value\tdisplay/volume\t45",
                ])
            // On any other row they do nothing and answer the focus.
            _ = try send("focus display/mute")
            #expect(try send("nav increase") == ["focus\tdisplay\tdisplay/mute"])
            #expect(try send("nav decrease") == ["focus\tdisplay\tdisplay/mute"])
            #expect(try value(daemon, "display/mute") == "off")

            #expect(try daemon.menuctl(["focus", "display/balance"]).status == 0)
            let menuctl = try daemon.menuctl(["nav", "decrease"])
            #expect(menuctl.status == 0, "\(menuctl)")
            #expect(try value(daemon, "display/balance") == "-1")
        }
    }

    /// Batched steps are one change, undone with the batch when a later request fails.
    @Test func stepsBatchAllOrNothing() async throws {
        try await withRangesDaemon { daemon throws in
            let connection = try daemon.connect()
            try connection.send("begin\nstep display/volume +20\nstep display/mute\nend\n")
            #expect(
                try connection.readReply().terminator
                    == "ERR batch-failed 2: not-a-range 'display/mute' is a toggle, not a range: use set")
            #expect(try value(daemon, "display/volume") == "40")
            try connection.send("begin\nstep display/volume +20\nstep display/volume -5\nend\n")
            #expect(try connection.readReply().lines == ["value\tdisplay/volume\t55"])
        }
    }
}
