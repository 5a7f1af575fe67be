import MenuCore
import MenuProtocol

/// Runs commands for in-process callers: a typed ``MenuCall`` in, the change it made
/// or its ``ProtocolError`` out. It takes the route a socket's request takes after
/// its words are read: the same handler, the same commit (events, the state file,
/// `on-change`), and the same wait for the children of the `children-cmd` groups it
/// opened; a caller is answered first and the change published after, as a
/// socket's client is.
struct CommandCaller {
    let state: MenuService

    /// Runs `call`; `reply` hears the change from before the command to when it is
    /// answered (empty for one that changed nothing), or why it was refused.
    func call(_ call: MenuCall, reply: @escaping (Result<Change, ProtocolError>) -> Void) {
        let (name, arguments) = call.words
        guard let command = state.commands.command(named: name) else {
            return reply(.failure(ProtocolError(.unknownCommand, "unknown command '\(name)'")))
        }
        let words = RequestWords([ProtocolWord(name)] + arguments.map { ProtocolWord($0, quoted: true) })
        let invocation = Invocation(command: command, arguments: Arguments(words), flags: [])
        if case .deferred(let body) = command.action {
            body(invocation, state).whenComplete { result in
                switch result {
                case .success(let output):
                    reply(.success(Change(composing: output.changes)))
                    if output.hasEvents || output.hasChanges { state.commit(output) }
                case .failure(let error as ProtocolError): reply(.failure(error))
                case .failure(let error): reply(.failure(ProtocolError(.internal, "\(error)")))
                }
            }
            return
        }
        var output = CommandOutput(listening: state.events.hasSubscribers)
        do throws(ProtocolError) {
            try command.body(invocation, state, &output)
        } catch {
            return reply(.failure(error))
        }
        if output.hasChanges {
            let opened = state.unloadedGroups(openedBy: output.changes)
            if !opened.isEmpty {
                state.commitLoadingChildren(output, opened).whenComplete { result in
                    reply(result.mapError { ProtocolError(.internal, "\($0)") })
                }
                return
            }
        }
        reply(.success(Change(composing: output.changes)))
        if output.hasEvents || output.hasChanges { state.commit(output) }
    }
}
