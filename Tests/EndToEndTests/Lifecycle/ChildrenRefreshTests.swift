import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// `children-cmd` groups with `refresh`, against Fixtures/refresh.yaml: `net/wifi`
/// prints the file `list` every 200 ms while it is open, and its runs are counted.
///
/// No test here waits for a time. That a refresh stopped is shown against a
/// sentinel: with one run of `net/wifi` held under way (the fixture's `hold`), no
/// other can start and the count is final; after it is let go, `ticks`, which
/// refreshes as often, runs four more times, in which a timer of `net/wifi` still
/// running would have started it at least twice.
@Suite(.ownThread) struct ChildrenRefreshTests {
    static let list = """
        - {id: home, title: Home, exec: "true"}
        - {id: metered, title: Metered, type: toggle}
        - {id: cafe, title: Cafe, children: [{title: Forget}, {title: Share}]}

        """

    private func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private func rows(_ daemon: TestDaemon, _ path: String) throws -> [RowRecord] {
        try daemon.request("rows \(path)").lines.compactMap {
            RowRecord(fields: ProtocolFields.fields(of: $0))
        }
    }

    /// Writes what `net/wifi` prints next, whole: a run reads the old or the new.
    private func setOutput(_ text: String, in daemon: TestDaemon) throws {
        try text.write(toFile: daemon.directory.file("list"), atomically: true, encoding: .utf8)
    }

    private func touch(_ name: String, in daemon: TestDaemon) throws {
        try "".write(toFile: daemon.directory.file(name), atomically: false, encoding: .utf8)
    }

    /// How many runs of `net/wifi` have started.
    private func runs(_ daemon: TestDaemon) -> Int { lines(daemon.directory.file("runs")).count }

    /// Waits until `net/wifi` has started `more` runs after the `count`th.
    private func waitForRuns(_ daemon: TestDaemon, after count: Int, _ more: Int = 2) async throws {
        try await waitUntil("\(more) more runs of net/wifi after \(count); log:\n\(daemon.log)") {
            runs(daemon) >= count + more
        }
    }

    private func withRefreshDaemon(
        config: String = TestPaths.fixture("refresh.yaml"), _ body: (TestDaemon) async throws -> Void
    ) async throws {
        let directory = try TempDirectory()
        try Self.list.write(toFile: directory.file("list"), atomically: true, encoding: .utf8)
        // A run held under way must not time out while a test holds it.
        try await withDaemon(
            config: config, arguments: ["--children-timeout", "600"], directory: directory, body)
    }

    /// Holds the next run of `net/wifi` under way, and waits until it is: from then
    /// on until ``release(_:)`` no other run of it can start.
    private func holdARun(_ daemon: TestDaemon) async throws -> Int {
        try touch("hold", in: daemon)
        try await waitUntil("a run of net/wifi held; log:\n\(daemon.log)") {
            !lines(daemon.directory.file("held")).isEmpty
        }
        return runs(daemon)
    }

    /// Lets the held run go, and waits until it has ended.
    private func release(_ daemon: TestDaemon) async throws {
        try touch("go", in: daemon)
        try await waitUntil("every run of net/wifi ended") {
            lines(daemon.directory.file("ends")).count == runs(daemon)
        }
    }

    /// Opens `ticks` (if it is not open) and waits until it has run four more times:
    /// at least three intervals of its timer have passed.
    private func tickThreeTimes(_ daemon: TestDaemon) async throws {
        let ticks = daemon.directory.file("tick-runs")
        let before = lines(ticks).count
        #expect(try daemon.request("expand ticks").isOK)
        try await waitUntil("four more runs of ticks") { lines(ticks).count >= before + 4 }
    }

    @Test func anOpenGroupRunsItsCommandAgainAndShowsWhatItPrints() async throws {
        try await withRefreshDaemon { daemon in
            #expect(try daemon.request("expand net/wifi").isOK)
            #expect(
                try rows(daemon, "net/wifi").map(\.path) == [
                    "net/wifi", "net/wifi/home", "net/wifi/metered", "net/wifi/cafe",
                ])
            try await waitForRuns(daemon, after: 1)
            try setOutput(Self.list + "- {id: library, title: Library}\n", in: daemon)
            try await waitUntil("the new child shown") {
                try rows(daemon, "net/wifi").map(\.path).last == "net/wifi/library"
            }
        }
    }

    /// An output the group shows already sends nothing; one more child is one
    /// inserted row, with no "Loading…" on the way.
    @Test func subscribersSeeOnlyWhatChanged() async throws {
        try await withRefreshDaemon { daemon in
            let subscriber = try daemon.connect()
            try subscriber.subscribe("expansion value")
            #expect(try daemon.request("expand net/wifi").isOK)
            // The group opens on "Loading…", which its three children replace.
            #expect(
                try subscriber.readEventGroup().records == [
                    "splice\t2\t0\t1", "expansion\tnet/wifi\texpanded",
                ])
            #expect(
                try subscriber.readEventGroup().records == [
                    "splice\t2\t1\t3", "value\tnet/wifi/metered\toff",
                ])
            // Two refreshes started after the subscriber's count: the first has ended,
            // since no run starts while one is under way.
            try await waitForRuns(daemon, after: runs(daemon))
            #expect(try daemon.request("set net/wifi/metered on").isOK)
            #expect(try subscriber.readEventGroup().records == ["value\tnet/wifi/metered\ton"])

            try setOutput(Self.list + "- {id: library, title: Library}\n", in: daemon)
            #expect(try subscriber.readEventGroup().records == ["splice\t5\t0\t1"])
            #expect(try rows(daemon, "net/wifi").last?.title == "Library")
        }
    }

    /// Children whose path is still there keep their expansion, value and focus, and
    /// a value that the output changes runs no `on-change`: a refresh is not a user's
    /// change.
    @Test func stateAndFocusStayWithTheChildrenThatStay() async throws {
        try await withRefreshDaemon { daemon in
            let auto = #"- {id: auto, title: Auto, type: toggle, value: VALUE, on-change: "echo x >> hook"}"#
            try setOutput(Self.list + auto.replacing("VALUE", with: "off") + "\n", in: daemon)
            #expect(try daemon.request("expand net/wifi").isOK)
            #expect(try daemon.request("set net/wifi/metered on").isOK)
            #expect(try daemon.request("focus net/wifi/cafe/share").isOK)
            let subscriber = try daemon.connect()
            try subscriber.subscribe("value")

            try setOutput(
                "- {id: library, title: Library}\n" + Self.list + auto.replacing("VALUE", with: "on") + "\n",
                in: daemon)
            #expect(try subscriber.readEventGroup().records == ["value\tnet/wifi/auto\ton"])
            // A hook is logged as it starts, before the change's events go out.
            #expect(!daemon.log.contains("on-change net/wifi/auto"), "\(daemon.log)")
            #expect(
                try rows(daemon, "net/wifi").map(\.path) == [
                    "net/wifi", "net/wifi/library", "net/wifi/home", "net/wifi/metered", "net/wifi/cafe",
                    "net/wifi/cafe/forget", "net/wifi/cafe/share", "net/wifi/auto",
                ])
            #expect(try rows(daemon, "net/wifi/metered").first?.value == "on")
            #expect(try daemon.request("focused net").lines == ["focus\tnet\tnet/wifi/cafe/share"])
        }
    }

    /// A failed refresh keeps the children and adds one row that says why and when
    /// they loaded; more failures do not add more, and the next output that loads
    /// takes it away.
    @Test func aFailedRefreshKeepsTheChildrenAndAddsOneErrorRow() async throws {
        try await withRefreshDaemon { daemon in
            #expect(try daemon.request("expand net/wifi").isOK)
            let children = try rows(daemon, "net/wifi").map(\.path)
            try touch("fail", in: daemon)
            try await waitUntil("the error row") {
                try rows(daemon, "net/wifi").map(\.path) == children + ["net/wifi/error"]
            }
            let error = try #require(try rows(daemon, "net/wifi").last?.title)
            #expect(
                error.wholeMatch(
                    of:
                        #/Error: exited with status 3: nmcli: no wifi device \(last loaded at \d\d:\d\d:\d\d\)/#
                )
                    != nil, "\(error)")
            try await waitForRuns(daemon, after: runs(daemon))
            #expect(try rows(daemon, "net/wifi").map(\.title).last == error)
            #expect(try rows(daemon, "net/wifi").map(\.path) == children + ["net/wifi/error"])
            try await waitUntil("the failure in the log") {
                daemon.log.contains("children-cmd net/wifi: refresh: ")
                    && daemon.log.contains("failed: exited with status 3: nmcli: no wifi device\nlooking\n")
            }

            // Output that is not a list of nodes fails the same way.
            try setOutput("- titel: Home\n", in: daemon)
            try FileManager.default.removeItem(atPath: daemon.directory.file("fail"))
            try await waitUntil("the error row to say what is wrong with the output") {
                try rows(daemon, "net/wifi").last?.title.contains("unknown key 'titel'") == true
            }
            #expect(try rows(daemon, "net/wifi").map(\.path) == children + ["net/wifi/error"])

            try setOutput(Self.list, in: daemon)
            try await waitUntil("the error row gone") { try rows(daemon, "net/wifi").map(\.path) == children }
        }
    }

    /// Closing the group, by collapsing it or by opening its exclusive sibling,
    /// stops its refresh. Meanwhile a run under way when the next is due is not
    /// started twice.
    @Test(arguments: ["collapse net/wifi", "expand net/wired"])
    func closingTheGroupStopsItsRefresh(_ closing: String) async throws {
        try await withRefreshDaemon { daemon in
            #expect(try daemon.request("expand net/wifi").isOK)
            let held = try await holdARun(daemon)
            try await tickThreeTimes(daemon)
            #expect(runs(daemon) == held, "a run started beside the held one")

            #expect(try daemon.request(closing).isOK)
            #expect(try rows(daemon, "net/wifi").first?.state == "collapsed")
            try await release(daemon)
            try await tickThreeTimes(daemon)
            #expect(runs(daemon) == held, "net/wifi refreshed while closed")

            // Opened again, it loads and refreshes anew.
            #expect(try daemon.request("expand net/wifi").isOK)
            try await waitForRuns(daemon, after: held, 3)
        }
    }

    /// A group whose row is hidden, by a group above it closing, does not refresh;
    /// shown again after an interval, it refreshes at once.
    @Test func aHiddenGroupDoesNotRefresh() async throws {
        try await withRefreshDaemon { daemon in
            #expect(try daemon.request("expand net/wifi").isOK)
            let held = try await holdARun(daemon)
            #expect(try daemon.request("collapse net").isOK)
            try await release(daemon)
            try await tickThreeTimes(daemon)
            #expect(runs(daemon) == held, "net/wifi refreshed while hidden")
            #expect(try rows(daemon, "net/wifi").first?.state == "expanded")

            #expect(try daemon.request("expand net").isOK)
            try await waitForRuns(daemon, after: held, 1)
        }
    }

    /// A reload follows the new config: without `refresh` the group stops
    /// refreshing, keeping its children; with it again, it starts again.
    @Test func aReloadFollowsTheNewConfig() async throws {
        let original = try String(contentsOfFile: TestPaths.fixture("refresh.yaml"), encoding: .utf8)
        let without = original.replacing("        refresh: 200ms\n", with: "")
        #expect(without != original)
        try await withConfigFile(original) { config in
            try await withRefreshDaemon(config: config) { daemon in
                #expect(try daemon.request("expand net/wifi").isOK)
                let children = try rows(daemon, "net/wifi").map(\.path)
                let held = try await holdARun(daemon)
                try without.write(toFile: config, atomically: true, encoding: .utf8)
                #expect(try daemon.request("reload").isOK)
                try await release(daemon)
                try await tickThreeTimes(daemon)
                #expect(runs(daemon) == held, "net/wifi refreshed without 'refresh'")
                #expect(try rows(daemon, "net/wifi").map(\.path) == children)

                try original.write(toFile: config, atomically: true, encoding: .utf8)
                #expect(try daemon.request("reload").isOK)
                try await waitForRuns(daemon, after: held)
            }
        }
    }

    /// The timers do not keep the daemon from stopping, and a refresh under way
    /// ends with it, as a first load does.
    @Test func theDaemonStopsWithAGroupRefreshing() async throws {
        var group: Int32?
        defer { if let group { kill(-group, SIGKILL) } }
        try await withRefreshDaemon { daemon in
            #expect(try daemon.request("expand net/wifi").isOK)
            #expect(try daemon.request("expand ticks").isOK)
            _ = try await holdARun(daemon)
            let pid = try #require(Int32(lines(daemon.directory.file("held")).first ?? ""))
            group = pid
            await daemon.stop()
            #expect(daemon.process.exitStatus == 0, "menud \(daemon.process.ending); log: \(daemon.log)")
            try await waitUntil("the held run's process group to be gone") {
                livingProcesses(inGroup: pid).isEmpty
            }
        }
    }
}
