import MenuCore
import MenuProtocol

/// The one way a resolved command is carried out, whoever asked for it: a client's
/// connection, a batch at its `end`, or an in-process caller (the tray). It runs the
/// handler, then either answers at once or holds the answer until the children of
/// the `children-cmd` groups the command opened have come, and commits what the
/// command changed (events, the state file, `on-change`) after the answer is
/// written. Only the ``Requester`` differs: where the answer goes.
struct Dispatcher {
    let service: MenuService
    /// The commands a request's first word names.
    let commands: CommandTable

    /// Runs `invocation`, writing into `output`, and answers `requester`.
    @inline(__always)
    func dispatch<R: Requester>(_ invocation: Invocation, into output: inout CommandOutput, for requester: R)
    {
        switch invocation.command.action {
        case .run:
            output.reset(listening: service.events.hasSubscribers)
            requester.lendReplies(to: &output)
            do throws(ProtocolError) {
                try invocation.command.body(invocation, service, &output)
            } catch {
                requester.takeBackReplies(from: &output, failed: true)
                requester.fail(error)
                return
            }
            requester.takeBackReplies(from: &output, failed: false)
            finish(&output, for: requester)
        case .deferred(let body):
            later(body(invocation, service), for: requester)
        case .beginBatch, .endBatch:
            // The requests of a batch are a connection's to gather; an in-process
            // caller makes one call at a time.
            requester.fail(
                ProtocolError(.notBatchable, "'\(invocation.command.name)' needs a connection"))
        }
    }

    /// Runs the gathered requests of a batch as one change, and answers `requester`.
    func run<R: Requester>(_ batch: Batch, into output: inout CommandOutput, for requester: R) {
        output.reset(listening: service.events.hasSubscribers)
        switch batch.run(in: service, into: &output) {
        case .success: finish(&output, for: requester)
        case .failure(let error): requester.fail(error)
        }
    }

    /// Waits for a deferred command's `completion`, the requester's later requests
    /// held back meanwhile. What the command did is committed even if the requester
    /// has gone.
    private func later<R: Requester>(_ completion: Completion<CommandOutput>, for requester: R) {
        requester.suspend()
        // One that is done already (`save` with `--no-state`) answers in line.
        var waited = false
        completion.whenComplete { result in
            switch result {
            case .success(var output): finish(&output, for: requester)
            case .failure(let error as ProtocolError): requester.fail(error)
            case .failure(let error): requester.fail(ProtocolError(.internal, "\(error)"))
            }
            requester.resume(afterWaiting: waited)
        }
        waited = true
    }

    /// Answers a command that succeeded and commits what it did; or, when it opened
    /// `children-cmd` groups that have no children yet, commits it now and answers
    /// once their commands have run, with the change from the rows before the command
    /// to the rows then, as docs/config.md promises.
    @inline(__always)
    private func finish<R: Requester>(_ output: inout CommandOutput, for requester: R) {
        if output.hasChanges {
            let opened = service.unloadedGroups(openedBy: output.changes)
            if !opened.isEmpty { return hold(output, until: opened, for: requester) }
        }
        requester.answer(&output)
        // Most commands change nothing and tell nobody: no call for them.
        if output.hasEvents || output.hasChanges { service.commit(output) }
    }

    /// Commits a command that opened `groups`, and answers once their children have
    /// come. Apart from ``finish(_:for:)``, so that the closure that keeps the
    /// requester is made only for such a command: inlined, it cost every request a
    /// retain and a release of the requester.
    @inline(never)
    private func hold<R: Requester>(
        _ output: borrowing CommandOutput, until groups: [Int], for requester: R
    ) {
        requester.hold(output)
        var waited = false
        service.commitLoadingChildren(output, groups).whenComplete { result in
            requester.answerHeld((try? result.get()) ?? Change(), afterWaiting: waited)
        }
        waited = true
    }
}
