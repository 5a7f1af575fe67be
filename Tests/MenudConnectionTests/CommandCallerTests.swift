import MenuCore
import MenuProtocol
import Testing

@testable import menud

/// In-process callers (the tray) call commands with typed arguments and get typed
/// results and events: the same handlers, commit and children wait as a socket's
/// requests, without protocol text.
@Suite struct CommandCallerTests {
    /// What a call answered, synchronously or after the loop ran.
    final class Answer {
        var result: Result<Change, ProtocolError>?
        var log: [String] = []
    }

    /// The node at `path`, or one past the last when there is none.
    private func node(_ path: String, _ service: MenuService) -> Int {
        service.model.tree.node(at: path) ?? service.model.tree.count
    }

    private func call(_ call: MenuCall, on service: MenuService, into answer: Answer) {
        CommandCaller(dispatcher: Dispatcher(service: service, commands: .standard)).call(call) { result in
            answer.result = result
            answer.log.append("reply")
        }
    }

    /// A call runs its command's handler directly: a command that answers later, or
    /// one of a batch's markers, would have no handler to run, and the call would
    /// succeed having done nothing.
    @Test func everyCallNamesACommandThatRunsAtOnce() throws {
        let calls: [MenuCall] = [
            .activate(node: 0), .set(node: 0, value: "v"), .step(node: 0, delta: nil),
            .step(node: 0, delta: "-5"), .expand(node: 0), .collapse(node: 0), .nav(.next, menu: "m"),
            .nav(.increase, menu: "m"),
        ]
        for call in calls {
            let command = try #require(CommandTable.standard.command(call.name), "\(call)")
            guard case .run = command.action else {
                Issue.record("\(call.name) does not run at once")
                continue
            }
            #expect(
                (command.minArguments...command.maxArguments).contains(call.arguments.count),
                "\(call.name)'s arity")
        }
    }

    @Test func aCallAnswersWithItsChangeThenListenersHearIt() throws {
        let harness = try ConnectionHarness()
        let answer = Answer()
        var notices: [EventNotice] = []
        let listener = harness.service.events.listen(topics: [.value]) { notice in
            notices.append(notice)
            answer.log.append("event")
        }
        defer { harness.service.events.stopListening(listener) }
        call(
            .set(node: node("display/volume", harness.service), value: "55"), on: harness.service,
            into: answer)
        let model = harness.service.model
        let change = try #require(try answer.result?.get())
        #expect(model.paths(of: change.valueChanged) == ["display/volume"])
        #expect(answer.log == ["reply", "event"])
        #expect(notices.count == 1)
        #expect(notices.first?.sequence == 1)
        #expect(
            notices.first.map { model.paths(of: $0.changes.flatMap(\.valueChanged)) } == ["display/volume"])
        #expect(model.value(path: "display/volume") == .number(55))
    }

    /// `step` as the tray calls it: a negative delta is a word like any other, never
    /// a flag, and a step at the bound answers an empty change and tells nobody.
    @Test func aStepCallMovesTheRangeByItsDelta() throws {
        let harness = try ConnectionHarness()
        var heard = 0
        let listener = harness.service.events.listen(topics: [.value]) { _ in heard += 1 }
        defer { harness.service.events.stopListening(listener) }
        let answer = Answer()
        let model = harness.service.model
        let before = try #require(model.value(path: "display/volume"))
        guard case .number(let start) = before else { throw MenuError.notAValue("display/volume") }
        call(
            .step(node: node("display/volume", harness.service), delta: "-5"), on: harness.service,
            into: answer)
        #expect(try answer.result?.get().valueChanged.isEmpty == false)
        #expect(model.value(path: "display/volume") == .number(start - 5))
        call(
            .step(node: node("display/volume", harness.service), delta: nil), on: harness.service,
            into: answer)
        #expect(model.value(path: "display/volume") == .number(start))
        #expect(heard == 2)
        call(
            .set(node: node("display/volume", harness.service), value: "100"), on: harness.service,
            into: answer)
        call(
            .step(node: node("display/volume", harness.service), delta: "+5"), on: harness.service,
            into: answer)
        #expect(try answer.result?.get().isEmpty == true)
        #expect(heard == 3)
        call(
            .step(node: node("display/volume", harness.service), delta: "5"), on: harness.service,
            into: answer)
        #expect(throws: ProtocolError.self) { try answer.result?.get() }
    }

    /// The tray names a node by its number; subscribers are told of it by its path,
    /// spelled once for the record.
    @Test func aCallOnANodeIsToldByItsPath() throws {
        let harness = try ConnectionHarness()
        let (subscriber, events) = harness.connect()
        subscriber.received("subscribe activate\n")
        let answer = Answer()
        call(.activate(node: node("power", harness.service)), on: harness.service, into: answer)
        #expect(try answer.result?.get().isEmpty == false)
        #expect(events.lines.contains("event\t1\tactivated\tpower\ttoggled"), "\(events.lines)")
        #expect(harness.service.model.isExpanded(path: "power"))
    }

    @Test func aListenerHearsOnlyItsTopics() throws {
        let harness = try ConnectionHarness()
        var heard = 0
        let listener = harness.service.events.listen(topics: [.value]) { _ in heard += 1 }
        defer { harness.service.events.stopListening(listener) }
        let answer = Answer()
        call(.expand(node: node("apps", harness.service)), on: harness.service, into: answer)
        #expect(try answer.result?.get().isEmpty == false)
        #expect(heard == 0)
        harness.service.events.stopListening(listener)
        call(
            .set(node: node("display/volume", harness.service), value: "60"), on: harness.service,
            into: answer)
        #expect(heard == 0)
    }

    @Test func aRefusedCallIsItsTypedError() throws {
        let harness = try ConnectionHarness()
        let answer = Answer()
        call(.activate(node: node("display/volume", harness.service)), on: harness.service, into: answer)
        #expect(throws: ProtocolError.self) { try answer.result?.get() }
        if case .failure(let error) = answer.result { #expect(error.code == .notActivatable) }
        // Nodes the model does not have.
        for n in [harness.service.model.tree.count, -1] {
            call(.expand(node: n), on: harness.service, into: answer)
            if case .failure(let error) = answer.result {
                #expect(error.code == .noSuchNode)
            } else {
                Issue.record("expanding node \(n) succeeded")
            }
        }
        // An argument is data: a menu name that looks like a flag is a menu name.
        call(.nav(.next, menu: "--recursive"), on: harness.service, into: answer)
        if case .failure(let error) = answer.result {
            #expect(error.code != .wrongArguments, "\(error)")
            #expect(error.message.contains("--recursive"), "\(error)")
        } else {
            Issue.record("nav in a menu '--recursive' succeeded")
        }
    }

    /// Opening a children-cmd group answers once its command has run, with the
    /// children's rows in the change, as a socket's `expand` does.
    @Test func openingAChildrenCommandGroupAnswersWhenItsChildrenCame() throws {
        let harness = try ConnectionHarness(menu: HeldReplyTests.menu)
        let answer = Answer()
        call(.expand(node: node("g", harness.service)), on: harness.service, into: answer)
        #expect(answer.result == nil)
        harness.loop.run()
        let change = try #require(try answer.result?.get())
        #expect(change.splices == [Splice(start: 1, removed: 0, inserted: 2)])
        #expect(harness.service.model.paths(of: change.expansionChanged) == ["g"])
    }
}
