import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// `on-change` commands and `children-cmd` groups, against Fixtures/live.yaml.
@Suite(.ownThread) struct CommandHookTests {
    private func rows(_ reply: ProtocolReply) -> [RowRecord] {
        reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
    }

    /// How many rows each of a reply's splices inserts.
    private func inserted(_ reply: ProtocolReply) -> [String] {
        reply.lines.map(ProtocolFields.fields(of:)).filter { $0.first == "splice" }.map { $0[3] }
    }

    private func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private func withLiveDaemon(_ arguments: [String] = [], _ body: (TestDaemon) async throws -> Void)
        async throws
    {
        try await withDaemon(config: TestPaths.fixture("live.yaml"), arguments: arguments, body)
    }

    /// The value reaches the command only through the environment: shell syntax in
    /// it stays text.
    @Test func onChangeGetsTheValueInItsEnvironmentAndNeverRunsIt() async throws {
        try await withLiveDaemon { daemon in
            let directory = daemon.directory
            let values = [
                "$(touch \(directory.file("pwned1")))", "`touch \(directory.file("pwned2"))`",
                "'; touch \(directory.file("pwned3")); '",
            ]
            for value in values {
                let reply = try daemon.request("set prefs/name \(ProtocolWords.quote(value))")
                #expect(reply.isOK, "\(reply.terminator)")
            }
            try await waitUntil("three on-change runs") { lines(directory.file("changes")).count == 3 }
            // The commands run detached and concurrently, so their lines may land in any order.
            #expect(Set(lines(directory.file("changes"))) == Set(values.map { "prefs/name=\($0)" }))
            for name in ["pwned1", "pwned2", "pwned3"] {
                #expect(!directory.contains(name))
            }
        }
    }

    @Test func aFailingOnChangeIsLogged() async throws {
        try await withLiveDaemon { daemon in
            #expect(try daemon.request("activate prefs/broken").isOK)
            try await waitUntil("the failure in the log") {
                daemon.log.contains("on-change prefs/broken: 'exit 3' exited with status 3")
            }
        }
    }

    @Test func childrenComeFromTheCommandAndAreCachedUntilReopened() async throws {
        try await withLiveDaemon { daemon in
            let runs = daemon.directory.file("runs")
            let reply = try daemon.request("expand nets")
            #expect(reply.lines == ["splice\t2\t0\t2", "expansion\tnets\texpanded"])
            #expect(rows(try daemon.request("rows nets")).map(\.path) == ["nets", "nets/home", "nets/cafe"])
            #expect(try daemon.request("activate nets/home").lines.first?.hasPrefix("ran\t") == true)
            #expect(try daemon.request("expand nets").lines.isEmpty)
            #expect(lines(runs) == ["run"])

            #expect(try daemon.request("collapse nets").isOK)
            #expect(try daemon.request("toggle nets").isOK)
            #expect(lines(runs) == ["run", "run"])
            #expect(try daemon.request("get nets/cafe").isOK)
        }
    }

    /// `refresh` runs a group's command whether it is open or not, and opens
    /// nothing: the first time it loads the group, then it runs again each time.
    @Test func refreshRunsTheCommandWithoutOpeningTheGroup() async throws {
        try await withLiveDaemon { daemon in
            let runs = daemon.directory.file("runs")
            #expect(try daemon.menuctl(["refresh", "nets"]).status == 0)
            #expect(lines(runs) == ["run"])
            #expect(rows(try daemon.request("tree nets")).map(\.path) == ["nets", "nets/home", "nets/cafe"])
            #expect(rows(try daemon.request("get nets")).first?.state == "collapsed")
            #expect(try daemon.request("refresh nets").isOK)
            #expect(lines(runs) == ["run", "run"])
            let refused = try daemon.request("refresh prefs")
            #expect(refused.errorCode == "not-expandable", "\(refused.terminator)")
            #expect(try daemon.request("refresh no/such").errorCode == "no-such-node")
        }
    }

    /// Whatever command opens a children-cmd group (a recursive or whole-menu one, a
    /// toggle, `nav`, `activate`), its reply waits for the group's command and has
    /// its children (three rows under `remote`, not `hosts` and a "Loading…" row).
    /// Each group is opened here for the first time, while it still holds only
    /// "Loading…".
    @Test func aCommandLoadsTheGroupsItOpensBeforeAnswering() async throws {
        try await withLiveDaemon { daemon in
            let runs = daemon.directory.file("host-runs")
            let hosts = try daemon.request("get remote/hosts")
            #expect(rows(hosts).first?.state == "collapsed")
            #expect(try daemon.request("toggle prefs").isOK)
            #expect(lines(runs).isEmpty)

            #expect(try inserted(daemon.request("expand remote --recursive")) == ["3"])
            #expect(
                rows(try daemon.request("rows remote")).map(\.path) == [
                    "remote", "remote/hosts", "remote/hosts/alpha", "remote/hosts/beta",
                ])
            #expect(try daemon.request("collapse-all remote").isOK)
            #expect(try inserted(daemon.request("expand-all remote")) == ["3"])
            #expect(try daemon.request("collapse remote").isOK)
            #expect(try daemon.request("collapse remote/hosts").isOK)
            #expect(try inserted(daemon.request("toggle remote --recursive")) == ["3"])
            #expect(lines(runs) == ["run", "run", "run"])

            #expect(try daemon.request("focus nets").isOK)
            #expect(try inserted(daemon.request("nav expand")) == ["2"])
            #expect(try inserted(daemon.request("activate printers")) == ["2"])
        }
    }

    /// A group restored open by a restart shows "Loading…" until its command has run;
    /// subscribers then see that row replaced by the output, as one splice.
    @Test func aGroupRestoredOpenHasItsLoadingRowReplaced() async throws {
        let directory = try TempDirectory()
        let go = directory.file("go")
        let live = TestPaths.fixture("live.yaml")
        try await withDaemon(config: live, directory: directory) { daemon in
            try "".write(toFile: go, atomically: false, encoding: .utf8)
            #expect(try daemon.request("expand gated").isOK)
        }
        try FileManager.default.removeItem(atPath: go)
        // The command waits for `go` from the daemon's start: on a loaded machine the
        // default 5 s could pass before the test writes it.
        try await withDaemon(config: live, arguments: ["--children-timeout", "120"], directory: directory) {
            daemon in
            let subscriber = try daemon.connect()
            try subscriber.subscribe("expansion")
            #expect(rows(try daemon.request("rows gated")).map(\.path) == ["gated", "gated/loading"])
            try "".write(toFile: go, atomically: false, encoding: .utf8)
            #expect(try subscriber.readEventGroup().records == ["splice\t5\t1\t1"])
            #expect(rows(try daemon.request("rows gated")).map(\.path) == ["gated", "gated/done"])
        }
    }

    @Test func badOutputAndFailureShowOneErrorRow() async throws {
        try await withLiveDaemon { daemon in
            #expect(try daemon.request("expand bad").isOK)
            let bad = rows(try daemon.request("rows bad"))
            #expect(bad.map(\.path) == ["bad", "bad/error"])
            #expect(
                bad.last?.title
                    == "Error: children-cmd of bad:1:3: unknown key 'titel' (did you mean 'title'?) (and 1 more)"
            )
            // The log says what the one more is.
            try await waitUntil("the log to list every error; log:\n\(daemon.log)") {
                daemon.log.contains("\nchildren-cmd of bad:3:9: expected a string, got a list\n")
            }

            #expect(try daemon.request("expand failing").isOK)
            let failing = rows(try daemon.request("rows failing"))
            // The last line the command wrote to its standard error says why; the log has it all.
            #expect(
                failing.map(\.title) == ["Failing", "Error: exited with status 4: nmcli: no wifi device"])
            try await waitUntil("the log to hold the command's stderr; log:\n\(daemon.log)") {
                daemon.log.contains(
                    "exited with status 4: nmcli: no wifi device\nlooking for the device\nnmcli: no wifi device\n"
                )
            }
            // The group still works.
            #expect(try daemon.request("collapse failing").isOK)
            #expect(try daemon.request("expand failing").isOK)
        }
    }

    /// While a command runs, its requester waits and everybody else is served; they
    /// see the group open on its "Loading…" row until the output comes.
    @Test func otherClientsAreServedWhileAChildrenCommandRuns() async throws {
        try await withLiveDaemon { daemon in
            let opener = try daemon.connect()
            try opener.send("expand gated\nget gated\n")
            let other = try daemon.connect()
            try other.send("ping\n")
            #expect(try other.readReply().isOK)
            try await waitUntil("the group open") {
                (try? rows(daemon.request("get gated")).first?.state) == "expanded"
            }
            #expect(rows(try daemon.request("rows gated")).map(\.path) == ["gated", "gated/loading"])
            try "".write(toFile: daemon.directory.file("go"), atomically: false, encoding: .utf8)
            #expect(try opener.readReply().lines == ["splice\t5\t0\t1", "expansion\tgated\texpanded"])
            #expect(rows(try opener.readReply()).first?.state == "expanded")
        }
    }

    /// Nothing would read its output or end it after its timeout, so a command still
    /// running when the daemon stops ends with it, and whatever it started too.
    ///
    /// `slow` runs until the test's directory is gone, so the group is checked while
    /// the directory is still there: only the daemon can have ended it.
    @Test func aRunningCommandEndsWithTheDaemon() async throws {
        var group: Int32?
        defer { if let group { kill(-group, SIGKILL) } }
        try await withLiveDaemon(["--children-timeout", "600"]) { daemon in
            let opener = try daemon.connect()
            try opener.send("expand slow\n")
            let pidFile = daemon.directory.file("slow.pid")
            try await waitUntil("the command to start") { !lines(pidFile).isEmpty }
            let pid = try #require(Int32(lines(pidFile).first ?? ""))
            // The command's shell is in the group its supervisor leads.
            let leader = try #require(ProcessEntry.all().first { $0.pid == pid }?.group)
            group = leader
            #expect(!livingProcesses(inGroup: leader).isEmpty)
            await daemon.stop()
            #expect(daemon.process.exitStatus == 0, "menud \(daemon.process.ending); log: \(daemon.log)")
            try await waitUntil("the command's process group to be gone") {
                livingProcesses(inGroup: leader).isEmpty
            }
        }
    }

    /// What the user started goes on: an application from `exec`, and an `on-change`
    /// command still applying a value.
    @Test func execAndOnChangeCommandsOutliveTheDaemon() async throws {
        let config = """
            menu:
              - id: app
                title: App
                exec: echo $$ > app.pid; while [ -e "$PWD" ]; do sleep 0.1; done
              - id: mode
                title: Mode
                type: toggle
                on-change: echo $$ > hook.pid; while [ -e "$PWD" ]; do sleep 0.1; done
            """
        var groups: [Int32] = []
        defer { for group in groups { kill(-group, SIGKILL) } }
        try await withConfigFile(config) { path in
            try await withDaemon(config: path, arguments: ["--on-change-timeout", "600"]) { daemon in
                #expect(try daemon.request("activate app").isOK)
                #expect(try daemon.request("set mode on").isOK)
                for name in ["app.pid", "hook.pid"] {
                    let file = daemon.directory.file(name)
                    try await waitUntil("\(name) to be written") { !lines(file).isEmpty }
                    groups.append(try #require(Int32(lines(file).first ?? "")))
                }
                await daemon.stop()
                #expect(daemon.process.exitStatus == 0, "menud \(daemon.process.ending); log: \(daemon.log)")
                for group in groups {
                    #expect(!livingProcesses(inGroup: group).isEmpty, "group \(group) ended with the daemon")
                }
            }
        }
    }

    /// A children-cmd group at the deepest level a menu may have (its command's output
    /// put it there) opens on an error row saying why, not on nothing.
    @Test func aGroupAtTheDepthLimitShowsAnErrorRow() async throws {
        // 63 static levels, then a command group whose output holds another one.
        var config = "menu:\n"
        var indent = "  "
        var path: [String] = []
        for level in 0..<63 {
            config += "\(indent)- id: g\(level)\n\(indent)  title: G\(level)\n\(indent)  children:\n"
            indent += "    "
            path.append("g\(level)")
        }
        // The output comes from a file in the daemon's directory: no quoting in quoting.
        config += "\(indent)- id: outer\n\(indent)  title: Outer\n\(indent)  children-cmd: cat outer.yaml\n"
        let outer = (path + ["outer"]).joined(separator: "/")
        try await withConfigFile(config) { file in
            try await withDaemon(config: file) { daemon in
                try "- id: inner\n  title: Inner\n  children-cmd: \"echo '- title: X'\"\n".write(
                    toFile: daemon.directory.file("outer.yaml"), atomically: false, encoding: .utf8)
                #expect(try daemon.request("expand \(outer)").isOK)
                let inner = rows(try daemon.request("rows \(outer)"))
                #expect(inner.map(\.title) == ["Outer", "Inner"], "\(inner); log: \(daemon.log)")
                #expect(try daemon.request("expand \(outer)/inner").isOK)
                let deepest = rows(try daemon.request("rows \(outer)/inner"))
                #expect(
                    deepest.map(\.title) == ["Inner", "Error: nested deeper than 64 levels"],
                    "\(deepest); log: \(daemon.log)")
                #expect(daemon.log.contains("would be nested deeper than 64 levels"), "\(daemon.log)")
            }
        }
    }

    @Test func aTimedOutCommandIsKilledWithItsGroupAndShowsAnErrorRow() async throws {
        try await withLiveDaemon(["--children-timeout", "0.5"]) { daemon in
            #expect(try daemon.request("expand slow").isOK)
            let slow = rows(try daemon.request("rows slow"))
            #expect(slow.map(\.title) == ["Slow", "Error: timed out after 0.5 s"])
            let pid = try #require(Int32(lines(daemon.directory.file("slow.pid")).first ?? ""))
            try await waitUntil("the command's process group to be gone") {
                kill(-pid, 0) != 0 && errno == ESRCH
            }
        }
    }
}
