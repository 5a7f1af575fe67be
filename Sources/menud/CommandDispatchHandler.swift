import MenuCore
import NIOCore

/// Runs each request through the ``CommandTable`` and writes its ``Response``. It is
/// the only handler that knows about batches: between `begin` and `end` it queues
/// requests (checking them as they come) and answers once at `end`, applying the
/// whole batch inside ``MenuModel/batch(_:)`` so that it takes effect entirely or not
/// at all.
///
/// Requests are handled synchronously on the event loop, one at a time and in arrival
/// order, which is what keeps pipelined replies in order without any bookkeeping.
final class CommandDispatchHandler: ChannelInboundHandler {
    typealias InboundIn = Request
    typealias OutboundOut = Response

    /// The daemon's state, bound to the event loop it may be used on.
    private let state: NIOLoopBound<DaemonState>
    /// The queued batch, nil outside `begin` … `end`. Entries that failed their checks
    /// stay in the queue as errors, so `end` can name the first failing position.
    private var batch: [Result<Invocation, ProtocolError>]?
    /// The most recent reply, so that closing can wait for every reply to be written.
    private var lastWrite: EventLoopFuture<Void>?

    init(state: NIOLoopBound<DaemonState>) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let result: Result<Invocation, ProtocolError>
        switch Self.unwrapInboundIn(data) {
        case .invalid(let error): result = .failure(error)
        case .words(let words):
            do throws(ProtocolError) {
                result = .success(try state.value.commands.resolve(words))
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
            send(.error(error), context: context)
        case .success(let invocation):
            handle(invocation, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }

    /// When the client has sent everything (`nc -N`, a shell `printf … |`), every
    /// request has been answered by now, since they are handled as they arrive; close
    /// once those answers are out.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.flush()
            closeAfterReplies(context: context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func handle(_ invocation: Invocation, context: ChannelHandlerContext) {
        switch invocation.command.action {
        case .beginBatch:
            batch = []
        case .endBatch:
            send(.error(ProtocolError(.notInBatch, "'end' without 'begin'")), context: context)
        case .run(let body):
            var output = CommandOutput()
            do throws(ProtocolError) {
                try body(invocation, state.value, &output)
            } catch {
                send(.error(error), context: context)
                return
            }
            send(.ok(output.lines), context: context)
            if output.closeConnection {
                context.flush()
                closeAfterReplies(context: context)
            }
        }
    }

    private func send(_ response: Response, context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.write(Self.wrapOutboundOut(response), promise: promise)
        lastWrite = promise.futureResult
    }

    private func closeAfterReplies(context: ChannelHandlerContext) {
        guard let lastWrite else {
            context.close(promise: nil)
            return
        }
        lastWrite.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
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
            send(run(queued), context: context)
        case .beginBatch, .run:
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

    private func run(_ queued: [Result<Invocation, ProtocolError>]) -> Response {
        for (i, entry) in queued.enumerated() {
            if case .failure(let error) = entry { return .error(Self.batchFailed(i + 1, error)) }
        }
        let state = self.state.value
        var output = CommandOutput()
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
            return .ok(output.lines + ModelCommands.changeRecords(change, in: state.model))
        } catch let failure as BatchFailure {
            return .error(Self.batchFailed(failure.position, failure.error))
        } catch {
            return .error(ProtocolError(.internal, "batch failed: \(error)"))
        }
    }

    private static func batchFailed(_ position: Int, _ error: ProtocolError) -> ProtocolError {
        ProtocolError(.batchFailed, "\(position): \(error.code.rawValue) \(error.message)")
    }
}
