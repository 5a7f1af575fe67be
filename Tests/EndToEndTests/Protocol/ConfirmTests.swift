import Foundation
import MenuProtocol
import TestSupport
import Testing

/// Items with `confirm:` ask first, with Yes / No rows under them, through the real
/// daemon and menuctl: no activation of the item itself runs its command.
@Suite(.ownThread) struct ConfirmTests {
    static let fixture = TestPaths.fixture("confirm.yaml")

    private func rows(_ daemon: TestDaemon) throws -> [RowRecord] {
        try daemon.request("rows").lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
    }

    @Test func activatingOpensTheQuestionAndNoRunsNothing() async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            // menuctl's own words show the question.
            let said = try daemon.menuctl(["activate", "power/reboot"])
            #expect(said.stdout.hasPrefix("▾ Reboot?"), "\(said)")
            let opened = try daemon.menuctl(["--raw", "activate", "power/shutdown"])
            #expect(opened.status == 0, "\(opened)")
            #expect(!opened.stdout.contains("ran\t"), "\(opened.stdout)")
            #expect(opened.stdout.contains("activated\tpower/shutdown\ttoggled"), "\(opened.stdout)")
            let open = try rows(daemon)
            #expect(
                open.map(\.path) == [
                    "power", "power/lock", "power/shutdown", "power/shutdown/yes", "power/shutdown/no",
                    "power/reboot", "power/reboot/yes", "power/reboot/no",
                ])
            let question = try #require(open.first { $0.path == "power/shutdown" })
            #expect(question.type == "group" && question.state == "expanded")
            #expect(question.title == "Really shut down?")
            #expect(open.filter { $0.depth == 2 }.map(\.title) == ["Yes", "No", "Yes", "No"])
            #expect(open.filter { $0.depth == 2 }.allSatisfy { $0.type == "item" })
            // The human form shows the question with its answers under it.
            let tree = try daemon.menuctl(["rows", "power/shutdown"]).stdout
            #expect(tree == "  ▾ Really shut down?\n      Yes\n      No\n", "\(tree)")

            let declined = try daemon.menuctl(["--raw", "activate", "power/shutdown/no"])
            #expect(declined.status == 0, "\(declined)")
            #expect(
                declined.stdout.hasPrefix("activated\tpower/shutdown/no\tdeclined\n"), "\(declined.stdout)")
            #expect(!declined.stdout.contains("ran\t"))
            #expect(declined.stdout.contains("expansion\tpower/shutdown\tcollapsed"))
            #expect(try rows(daemon).map(\.title) == ["Power", "Lock", "Shut down", "Reboot?", "Yes", "No"])

            // Something that does run, started after the No: once it has, the No's
            // command would have too.
            #expect(try daemon.menuctl(["--raw", "activate", "power/lock"]).status == 0)
            try await waitUntil("lock's command") { daemon.directory.contains("locked") }
            #expect(!daemon.directory.contains("shut-down"), "No ran the command")
            #expect(!daemon.log.contains("touch shut-down"), "\(daemon.log)")
        }
    }

    @Test func yesRunsTheCommandAndClosesTheQuestion() async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            #expect(try daemon.menuctl(["--raw", "activate", "power/reboot"]).status == 0)
            // `confirm: true` asks the title.
            #expect(try rows(daemon).first { $0.path == "power/reboot" }?.title == "Reboot?")
            let subscriber = try daemon.connect()
            try subscriber.subscribe("activate expansion")
            let yes = try daemon.menuctl(["--raw", "activate", "power/reboot/yes"])
            #expect(yes.status == 0, "\(yes)")
            #expect(yes.stdout.contains("ran\t"), "\(yes.stdout)")
            #expect(yes.stdout.contains("\ttouch rebooted\n"), "\(yes.stdout)")
            #expect(yes.stdout.contains("expansion\tpower/reboot\tcollapsed"), "\(yes.stdout)")
            try await waitUntil("the confirmed command") { daemon.directory.contains("rebooted") }
            let group = try subscriber.readEventGroup()
            #expect(group.records.contains("activated\tpower/reboot/yes\tran"), "\(group.records)")
            #expect(try rows(daemon).map(\.title) == ["Power", "Lock", "Shut down", "Reboot"])
        }
    }

    /// menuctl's words for a yes name the item confirmed, not the answer; a plain
    /// item is named as it is.
    @Test func theReplyToYesNamesTheItem() async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            #expect(try daemon.menuctl(["activate", "power/shutdown"]).status == 0)
            let yes = try daemon.menuctl(["activate", "power/shutdown/yes"])
            #expect(yes.stdout.hasPrefix("Started Shut down (pid "), "\(yes)")
            #expect(yes.stdout.contains("): touch shut-down\n"), "\(yes)")
            let lock = try daemon.menuctl(["activate", "power/lock"])
            #expect(lock.stdout.hasPrefix("Started Lock (pid "), "\(lock)")
            try await waitUntil("both commands") {
                daemon.directory.contains("shut-down") && daemon.directory.contains("locked")
            }
        }
    }

    /// A bar's click or key binding moves the focus and activates it: the question
    /// opens under the focus, the next row is Yes.
    @Test func navActivateAsksToo() async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            #expect(try daemon.menuctl(["--raw", "focus", "power/shutdown"]).status == 0)
            let opened = try daemon.menuctl(["--raw", "nav", "activate"])
            #expect(!opened.stdout.contains("ran\t"), "\(opened.stdout)")
            #expect(try daemon.menuctl(["--raw", "nav", "next"]).stdout.contains("power/shutdown/yes"))
            let yes = try daemon.menuctl(["--raw", "nav", "activate"])
            #expect(yes.stdout.contains("ran\t"), "\(yes.stdout)")
            try await waitUntil("the confirmed command") { daemon.directory.contains("shut-down") }
            // The answer is hidden now: the focus is on the item again.
            #expect(try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tpower\tpower/shutdown\n")
        }
    }

    /// The bar formats show the question and its answers like any rows; polybar's
    /// click action on Yes, run as polybar runs it, answers it.
    @Test func barsShowTheAnswersAndAClickOnYesRunsIt() async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            #expect(try daemon.menuctl(["--raw", "activate", "power/shutdown"]).status == 0)
            let waybar = try daemon.menuctl(["render", "--format", "waybar"]).stdout
            #expect(waybar.contains("▾ Really shut down?  Yes  No  ▸ Reboot"), "\(waybar)")
            let i3blocks = try daemon.menuctl(["render", "--format", "i3blocks"]).stdout
            #expect(i3blocks.contains("▾ Really shut down?  Yes  No"), "\(i3blocks)")
            let polybar = try daemon.menuctl(["render", "--format", "polybar"]).stdout
            // %{A1:COMMAND:}Yes%{A}: the click on Yes.
            let yes = try #require(polybar.range(of: ":}Yes%{A}"), "\(polybar)")
            let start = try #require(polybar[..<yes.lowerBound].range(of: "%{A1:", options: .backwards))
            let click = String(polybar[start.upperBound..<yes.lowerBound])
            #expect(click.contains("activate power/shutdown/yes"), "\(click)")
            let clicked = try run("/bin/sh", ["-c", click])
            #expect(clicked.status == 0, "\(clicked)")
            try await waitUntil("the confirmed command") { daemon.directory.contains("shut-down") }
            #expect(try daemon.menuctl(["--raw", "get", "power/shutdown"]).stdout.contains("\tcollapsed\t"))
        }
    }

    /// `menuctl pick` through a dmenu-style launcher playing a script: choosing the
    /// item shows the question with Yes and No, and only Yes runs it.
    @Test(arguments: ["No", "Yes"])
    func pickShowsTheQuestion(_ answer: String) async throws {
        try await withDaemon(config: Self.fixture) { daemon in
            let dir = daemon.directory
            try "Shut down\n\(answer)\n".write(toFile: dir.file("answers"), atomically: true, encoding: .utf8)
            let script = """
                n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count
                cat > shown-$n
                answer=$(sed -n "${n}p" answers)
                [ -n "$answer" ] || exit 1
                grep -m1 -x -- " *$answer" shown-$n || grep -m1 -F -- "$answer" shown-$n
                """
            try script.write(toFile: dir.file("launcher.sh"), atomically: true, encoding: .utf8)
            let result = try daemon.menuctl(["pick", "--launcher", "cd '\(dir.path)' && sh launcher.sh"])
            #expect(result.status == 0, "\(result)")
            let shown = try String(contentsOfFile: dir.file("shown-2"), encoding: .utf8)
            #expect(
                shown == "▾ Power\n    Lock\n  ▾ Really shut down?\n      Yes\n      No\n  ▸ Reboot\n",
                "\(shown)")
            try await daemon.expectShutDownAnswered(yes: answer == "Yes")
        }
    }
}

extension TestDaemon {
    /// After `confirm.yaml`'s "Really shut down?" was answered, in whatever front end:
    /// the question is closed, and its command ran for Yes only. Lock, activated
    /// after the answer, is seen to run first, so that a No that ran the command
    /// would have been seen too.
    func expectShutDownAnswered(yes: Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(
            try menuctl(["--raw", "get", "power/shutdown"]).stdout.contains("\tcollapsed\t"),
            sourceLocation: sourceLocation)
        #expect(try menuctl(["--raw", "activate", "power/lock"]).status == 0, sourceLocation: sourceLocation)
        try await waitUntil("lock's command") { directory.contains("locked") }
        if yes {
            try await waitUntil("the confirmed command") { directory.contains("shut-down") }
        } else {
            #expect(!directory.contains("shut-down"), "No ran the command", sourceLocation: sourceLocation)
        }
    }
}
