import MenuCore
import MenuProtocol
import NIOCore

/// Runs each request through the ``CommandTable`` and writes its reply (``Replies``). It is
/// the only handler that knows about batches: between `begin` and `end` it queues
/// requests (checking them as they come) and answers once at `end`, applying the
/// whole batch inside ``MenuModel/batch(_:)`` so that it takes effect entirely or not
/// at all.
///
/// Requests are handled on the event loop, one at a time and in arrival order. Most
/// answer at once; a command that must wait (a state write, a group's children
/// command) holds back this connection's later requests until it has answered, which
/// keeps pipelined replies in order, while other connections go on being served.
///
/// After each reply it hands the command's events to the ``EventHub``, so a
/// subscriber that made the change reads its reply first and the events after.
final class CommandDispatchHandler: ChannelInboundHandler {
    /// The requests of one read, in order.
    typealias InboundIn = [Request]
    typealias OutboundOut = Replies

    /// The daemon's state. The handler is made on the event loop the state lives on
    /// (``MenuServer/configure(_:state:stallTimeout:connections:logger:)``) and, like
    /// every handler, only runs there, so it holds the state itself rather than a
    /// `NIOLoopBound`, whose every read checks the thread: several times a request.
    private let state: DaemonState
    /// The queued batch, nil outside `begin` … `end`. Entries that failed their checks
    /// stay in the queue as errors, so `end` can name the first failing position.
    private var batch: [Result<Invocation, ProtocolError>]?
    /// This connection's event stream, registered with the hub on `subscribe`.
    private let stream: EventStreamHandler
    /// Requests that arrived while a deferred command was running, in order.
    private var backlog: [Request] = []
    private var busy = false
    /// Replies not yet handed to ``ReplyFlushHandler``. They are gathered and go down as one
    /// message per read (or per ``repliesPerWrite``), and are flushed once per read
    /// (``channelReadComplete``), not one by one: each outbound message costs an
    /// `NIOAny` round trip, more than a short reply does.
    private var replies = Replies()
    /// The client shut its sending side while a deferred command was running.
    private var closeWhenIdle = false

    init(state: DaemonState, stream: EventStreamHandler) {
        self.state = state
        self.stream = stream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // While the client has not taken its earlier replies (the channel is over its
        // high-water mark), later requests wait too: one read can hold thousands of
        // them, and answering all at once would queue their replies without bound.
        for request in Self.unwrapInboundIn(data) {
            if busy || !backlog.isEmpty || !context.channel.isWritable {
                backlog.append(request)
            } else {
                process(request, context: context)
            }
        }
        writeReplies(context: context)
    }

    private func process(_ request: Request, context: ChannelHandlerContext) {
        let result: Result<Invocation, ProtocolError>
        switch request {
        case .invalid(let error): result = .failure(error)
        case .words(let words):
            do throws(ProtocolError) {
                result = .success(try state.commands.resolve(words))
            } catch {
                result = .failure(error)
            }
        }

        if batch != nil {
            queue(result, context: context)
            return
        }
        switch result {
        case .failure(let error):
            fail(error, context: context)
        case .success(let invocation):
            handle(invocation, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush(context: context)
        context.fireChannelReadComplete()
    }

    /// When the client has sent everything (`nc -N`, a shell `printf … |`), every
    /// request has been answered by now, since they are handled as they arrive; close
    /// once those answers are out.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            flush(context: context)
            if busy || !backlog.isEmpty {
                closeWhenIdle = true
            } else {
                closeAfterReplies(context: context)
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func handle(_ invocation: Invocation, context: ChannelHandlerContext) {
        switch invocation.command.action {
        case .beginBatch:
            batch = []
        case .endBatch:
            fail(ProtocolError(.notInBatch, "'end' without 'begin'"), context: context)
        case .run(let body):
            let state = self.state
            let toLoad = state.groupsToLoad(openedBy: CollectionOfOne(invocation)) { _ in
                try invocation.command.trial?(invocation, state)
            }
            if !toLoad.isEmpty {
                // Opening a children-cmd group: its children first, then the command.
                reply(
                    later: state.loadChildren(toLoad).assumeIsolated().flatMapThrowing {
                        var output = CommandOutput(listening: state.events.hasSubscribers)
                        try body(invocation, state, &output)
                        return output
                    }.nonisolated(), context: context)
                return
            }
            // The command writes its lines straight after the replies before it; if it
            // fails, they are cut off again and only its error is left.
            var output = CommandOutput(listening: state.events.hasSubscribers)
            swap(&output.reply, &replies.lines)
            let mark = output.reply.count
            do throws(ProtocolError) {
                try body(invocation, state, &output)
            } catch {
                output.reply.truncate(to: mark)
                swap(&output.reply, &replies.lines)
                fail(error, context: context)
                return
            }
            swap(&output.reply, &replies.lines)
            finish(output, context: context)
        case .deferred(let body):
            reply(later: body(invocation, state), context: context)
        }
    }

    /// Waits for `future`, holding back this connection's later requests meanwhile.
    private func reply(later future: EventLoopFuture<CommandOutput>, context: ChannelHandlerContext) {
        busy = true
        future.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let output): self.finish(output, context: context)
            case .failure(let error as ProtocolError): self.fail(error, context: context)
            case .failure(let error):
                self.fail(ProtocolError(.internal, "\(error)"), context: context)
            }
            self.flush(context: context)
            self.busy = false
            self.drainBacklog(context: context)
        }
    }

    /// Answers a command that succeeded, then tells the subscribers and subscribes
    /// this connection if the command asked for it.
    private func finish(_ output: CommandOutput, context: ChannelHandlerContext) {
        // Lines of a command that wrote elsewhere (a batch, a deferred command); an
        // ordinary command has written into `replies` already.
        replies.lines.append(contentsOf: output.reply)
        replies.ok()
        writeIfMany(context: context)
        // Replies wait in ``ReplyFlushHandler`` until the read is done; a subscriber's own
        // events go out below it, so its reply must leave first.
        if output.hasEvents, state.events.isSubscribed(stream) { flush(context: context) }
        state.commit(output)
        if let topics = output.subscribe {
            state.events.subscribe(stream, topics: topics)
        }
        if output.closeConnection {
            flush(context: context)
            closeAfterReplies(context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { drainBacklog(context: context) }
        context.fireChannelWritabilityChanged()
    }

    private func drainBacklog(context: ChannelHandlerContext) {
        while !busy, context.channel.isWritable, !backlog.isEmpty {
            process(backlog.removeFirst(), context: context)
        }
        flush(context: context)
        if !busy, backlog.isEmpty, closeWhenIdle { closeAfterReplies(context: context) }
    }

    /// Answers a request with its error.
    private func fail(_ error: ProtocolError, context: ChannelHandlerContext) {
        replies.error(error)
        writeIfMany(context: context)
    }

    /// Written on before the read ends once there are many, so that the channel's
    /// writability, checked before each request, counts them.
    private func writeIfMany(context: ChannelHandlerContext) {
        if replies.count >= Self.repliesPerWrite { writeReplies(context: context) }
    }

    private static let repliesPerWrite = 64

    private func writeReplies(context: ChannelHandlerContext) {
        guard !replies.isEmpty else { return }
        let gathered = replies
        replies = Replies()
        context.write(Self.wrapOutboundOut(gathered), promise: nil)
    }

    private func flush(context: ChannelHandlerContext) {
        writeReplies(context: context)
        context.flush()
    }

    /// The ``ReplyFlushHandler`` holds the close back until every reply is written.
    private func closeAfterReplies(context: ChannelHandlerContext) {
        writeReplies(context: context)
        context.close(promise: nil)
    }

    private func queue(_ entry: Result<Invocation, ProtocolError>, context: ChannelHandlerContext) {
        guard case .success(let invocation) = entry else {
            batch!.append(entry)
            return
        }
        switch invocation.command.action {
        case .endBatch:
            let queued = batch!
            batch = nil
            let state = self.state
            let invocations = queued.compactMap { try? $0.get() }
            let toLoad = state.groupsToLoad(openedBy: invocations) { _ in
                for invocation in invocations { try invocation.command.trial?(invocation, state) }
            }
            if !toLoad.isEmpty {
                reply(
                    later: state.loadChildren(toLoad).assumeIsolated().flatMapThrowing {
                        try self.run(queued).get()
                    }.nonisolated(), context: context)
                return
            }
            switch run(queued) {
            case .success(let output): finish(output, context: context)
            case .failure(let error): fail(error, context: context)
            }
        case .beginBatch, .run, .deferred:
            if invocation.command.batchable {
                batch!.append(entry)
            } else {
                let error = ProtocolError(
                    .notBatchable, "'\(invocation.command.name)' cannot be used in a batch")
                batch!.append(.failure(error))
            }
        }
    }

    /// A failing command's 1-based position and error, carried out of the model's
    /// batch so that the model undoes everything before the reply is built.
    private struct BatchFailure: Error {
        var position: Int
        var error: ProtocolError
    }

    private func run(_ queued: [Result<Invocation, ProtocolError>]) -> Result<CommandOutput, ProtocolError> {
        for (i, entry) in queued.enumerated() {
            if case .failure(let error) = entry { return .failure(Self.batchFailed(i + 1, error)) }
        }
        let state = self.state
        var output = CommandOutput(listening: state.events.hasSubscribers)
        do {
            let change = try state.model.batch { _ in
                for (i, entry) in queued.enumerated() {
                    guard case .success(let invocation) = entry,
                        case .run(let body) = invocation.command.action
                    else { continue }
                    do throws(ProtocolError) {
                        try body(invocation, state, &output)
                    } catch {
                        throw BatchFailure(position: i + 1, error: error)
                    }
                }
            }
            output.record(change, in: state.model)
            return .success(output)
        } catch let failure as BatchFailure {
            return .failure(Self.batchFailed(failure.position, failure.error))
        } catch {
            return .failure(ProtocolError(.internal, "batch failed: \(error)"))
        }
    }

    private static func batchFailed(_ position: Int, _ error: ProtocolError) -> ProtocolError {
        ProtocolError(.batchFailed, "\(position): \(error.code.rawValue) \(error.message)")
    }
}
