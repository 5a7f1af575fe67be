import MenuCore
import MenuProtocol
import Testing

@testable import menud

/// The one dispatcher, seen from a requester of its own: the steps it takes for each
/// kind of command, in order, beside the events the commit sends.
@Suite struct DispatcherTests {
    /// Writes down each step it is told, and the events an in-process listener hears.
    final class Steps: Requester {
        var log: [String] = []

        func lendReplies(to output: inout CommandOutput) { log.append("lend") }
        func takeBackReplies(from output: inout CommandOutput, failed: Bool) {
            log.append(failed ? "take back, failed" : "take back")
        }
        func answer(_ output: inout CommandOutput) { log.append("answer") }
        func hold(_ output: borrowing CommandOutput) { log.append("hold") }
        func answerHeld(_ change: Change, afterWaiting: Bool) {
            log.append("answer held, \(change.splices.count) splices")
        }
        func fail(_ error: ProtocolError) { log.append("fail \(error.code.rawValue)") }
        func suspend() { log.append("suspend") }
        func resume(afterWaiting: Bool) { log.append("resume") }
    }

    private func dispatch(_ request: String, in harness: ConnectionHarness, to steps: Steps) throws {
        let words = RequestWords(request.split(separator: " ").map { ProtocolWord(String($0)) })
        let invocation = try harness.dispatcher.commands.resolve(words)
        var output = CommandOutput(listening: false)
        harness.dispatcher.dispatch(invocation, into: &output, for: steps)
    }

    /// A harness whose every event group is written down among `steps`.
    private func withSteps(
        menu: String? = nil, _ body: (ConnectionHarness, Steps) throws -> Void
    ) throws {
        let harness = try ConnectionHarness(menu: menu)
        let steps = Steps()
        let listener = harness.service.events.listen(topics: EventTopics.all) { _ in
            steps.log.append("event")
        }
        defer { harness.service.events.stopListening(listener) }
        try body(harness, steps)
    }

    @Test func aCommandIsAnsweredThenCommitted() throws {
        try withSteps { harness, steps in
            try dispatch("toggle power", in: harness, to: steps)
            #expect(steps.log == ["lend", "take back", "answer", "event"])
            #expect(harness.service.model.isExpanded(path: "power"))
        }
    }

    @Test func aRefusedCommandIsItsErrorAndCommitsNothing() throws {
        try withSteps { harness, steps in
            try dispatch("toggle nowhere", in: harness, to: steps)
            #expect(steps.log == ["lend", "take back, failed", "fail no-such-node"])
        }
    }

    @Test func aCommandThatOpensAChildrenCommandGroupIsHeldUntilItsChildrenCame() throws {
        try withSteps(menu: HeldReplyTests.menu) { harness, steps in
            try dispatch("expand g", in: harness, to: steps)
            // Committed at once: the group open on its "Loading…" row.
            #expect(steps.log == ["lend", "take back", "hold", "event"])
            harness.loop.run()
            #expect(
                steps.log == ["lend", "take back", "hold", "event", "event", "answer held, 1 splices"])
        }
    }

    @Test func aCommandThatAnswersLaterHoldsTheRequesterMeanwhile() throws {
        let harness = try ConnectionHarness()
        let steps = Steps()
        // Without a state file, `save` is refused at once: in line, between the two.
        try dispatch("save", in: harness, to: steps)
        #expect(steps.log == ["suspend", "fail save-failed", "resume"])
    }

    @Test func aBatchMarkerNeedsAConnection() throws {
        let harness = try ConnectionHarness()
        let steps = Steps()
        try dispatch("begin", in: harness, to: steps)
        #expect(steps.log == ["fail not-batchable"])
    }
}
