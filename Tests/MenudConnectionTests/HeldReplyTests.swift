import MenuProtocol
import Testing

@testable import menud

/// A command that opens a children-cmd group is answered once the group's command
/// has run, with the children in its reply; the requests pipelined behind it wait,
/// in order, and subscribers see the group open on "Loading…" and then that row
/// replaced. The group's command is a real process: nothing is answered until the
/// loop runs and reaps it.
@Suite struct HeldReplyTests {
    static let menu = """
        menu:
          - id: g
            title: G
            children-cmd: |
              printf '%s\\n' '- title: A' '- title: B'
          - id: other
            title: Other
            children:
              - {id: x, title: X}
        """

    private func paths(_ reply: [String]?) -> [String] {
        (reply ?? []).compactMap { RowRecord(fields: ProtocolFields.fields(of: $0))?.path }
    }

    /// Runs the loop until the group's command has ended and been reaped.
    private func runCommands(_ harness: ConnectionHarness) {
        harness.loop.run()
    }

    @Test func theReplyWaitsForTheChildrenAndHoldsThePipelineBehindIt() throws {
        let harness = try ConnectionHarness(menu: Self.menu)
        let (subscriber, events) = harness.connect()
        subscriber.received("subscribe expansion\n")
        let (client, transport) = harness.connect()
        client.received("expand g\nget g/a\ntoggle other\nping\n")
        #expect(replies(transport.lines).isEmpty)

        // Everybody else is served meanwhile, and sees the group open on "Loading…".
        let (other, otherTransport) = harness.connect()
        other.received("rows g\n")
        #expect(paths(replies(otherTransport.lines).first) == ["g", "g/loading"])
        #expect(
            events.lines.dropFirst(2) == [
                "event\t1\tsplice\t1\t0\t1", "event\t1\texpansion\tg\texpanded", "event\t1\tend",
            ])

        runCommands(harness)
        let answers = replies(transport.lines)
        #expect(answers.count == 4)
        #expect(answers.first == ["splice\t1\t0\t2", "expansion\tg\texpanded", "OK"])
        #expect(paths(answers.dropFirst().first) == ["g/a"])
        #expect(answers.dropFirst(2).first == ["splice\t4\t0\t1", "expansion\tother\texpanded", "OK"])
        #expect(answers.last == ["OK"])
        #expect(
            events.lines.dropFirst(5) == [
                "event\t2\tsplice\t1\t1\t2", "event\t2\tend",
                "event\t3\tsplice\t4\t0\t1", "event\t3\texpansion\tother\texpanded", "event\t3\tend",
            ])
    }

    /// A subscriber that opens the group reads its reply before the events its
    /// command caused, and the events of others' changes made meanwhile after it.
    /// The reply goes from the rows before the command to the rows when it is
    /// answered, so it tells the other client's change too.
    @Test func aSubscriberGetsItsReplyBeforeTheEvents() throws {
        let harness = try ConnectionHarness(menu: Self.menu)
        let (client, transport) = harness.connect()
        client.received("subscribe expansion\nexpand g\nping\n")
        let (other, _) = harness.connect()
        other.received("toggle other\n")
        #expect(transport.lines.dropFirst() == ["OK"])

        runCommands(harness)
        #expect(
            transport.lines.dropFirst(2) == [
                "splice\t1\t0\t2", "splice\t4\t0\t1", "expansion\tg\texpanded", "expansion\tother\texpanded",
                "OK",
                "event\t1\tsplice\t1\t0\t1", "event\t1\texpansion\tg\texpanded", "event\t1\tend",
                "event\t2\tsplice\t3\t0\t1", "event\t2\texpansion\tother\texpanded", "event\t2\tend",
                "event\t3\tsplice\t1\t1\t2", "event\t3\tend",
                "OK",
            ])
    }

    /// A batch that opens the group answers once, when the group has loaded, with
    /// one change; a batch that fails opens nothing and answers at once.
    @Test func aBatchWaits() throws {
        let harness = try ConnectionHarness(menu: Self.menu)
        let (client, transport) = harness.connect()
        client.received("begin\ntoggle g\nset other/x 1\nend\nget g/b\n")
        let failed = replies(transport.lines)
        #expect(failed.count == 2)
        #expect(failed.first?.first?.hasPrefix("ERR batch-failed 2: ") == true)
        #expect(failed.last?.first?.hasPrefix("ERR no-such-node ") == true)

        client.received("begin\nexpand g\ntoggle other\nend\nrows\n")
        #expect(replies(transport.lines).count == 2)
        runCommands(harness)
        let answers = replies(transport.lines).dropFirst(2)
        #expect(
            answers.first == [
                "splice\t1\t0\t2", "splice\t4\t0\t1", "expansion\tg\texpanded", "expansion\tother\texpanded",
                "OK",
            ])
        #expect(paths(answers.last) == ["g", "g/a", "g/b", "other", "other/x"])
    }
}
