import MenuCore
import MenuProtocol

/// Runs commands for in-process callers: a typed ``MenuCall`` in, the change it made
/// or its ``ProtocolError`` out. The node it names is used as it is, never spelled
/// as a path to be looked up again. It goes through the ``Dispatcher`` as a socket's
/// request does: the same handler, the same commit (events, the state file,
/// `on-change`), and the same wait for the children of the `children-cmd` groups it
/// opened; a caller is answered first and the change published after, as a
/// socket's client is.
struct CommandCaller {
    let dispatcher: Dispatcher

    /// Runs `call`; `reply` hears the change from before the command to when it is
    /// answered (empty for one that changed nothing), or why it was refused.
    func call(_ call: MenuCall, reply: @escaping (Result<Change, ProtocolError>) -> Void) {
        guard let command = dispatcher.commands.command(call.name) else {
            return reply(.failure(ProtocolError(.unknownCommand, "unknown command '\(call.name.rawValue)'")))
        }
        if let n = call.node, !(0..<dispatcher.service.model.tree.count).contains(n) {
            return reply(.failure(ProtocolError(.noSuchNode, "no node \(n)")))
        }
        let invocation = Invocation(
            command: command, arguments: Arguments(values: call.arguments), flags: [], node: call.node)
        var output = CommandOutput(listening: false)
        dispatcher.dispatch(invocation, into: &output, for: CallReply(reply))
    }
}

/// An in-process call's answer: the change its command made, or its error, told once.
private final class CallReply: Requester {
    private let reply: (Result<Change, ProtocolError>) -> Void

    init(_ reply: @escaping (Result<Change, ProtocolError>) -> Void) { self.reply = reply }

    func lendReplies(to output: inout CommandOutput) {}
    func takeBackReplies(from output: inout CommandOutput, failed: Bool) {}
    func answer(_ output: inout CommandOutput) { reply(.success(Change(composing: output.changes))) }
    func hold(_ output: borrowing CommandOutput) {}
    func answerHeld(_ change: Change, afterWaiting: Bool) { reply(.success(change)) }
    func fail(_ error: ProtocolError) { reply(.failure(error)) }
    func suspend() {}
    func resume(afterWaiting: Bool) {}
}
