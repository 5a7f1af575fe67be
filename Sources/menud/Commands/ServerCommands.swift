import MenuCore
import MenuProtocol

/// The commands about the connection and the protocol itself, which work whatever
/// menu is loaded.
enum ServerCommands {
    static let daemonVersion = MenudRelease.version

    static let all: [Command] = [
        Command(
            "ping",
            action: .run { _, _, _ in }),
        Command(
            "version",
            action: .run { _, _, out in
                out.reply.record(["protocol", Greeting.protocolVersion])
                out.reply.record(["menud", daemonVersion])
            }),
        Command(
            "help",
            action: .run { invocation, state, out throws(ProtocolError) in
                var commands = state.commands.commands
                if let name = invocation.arguments.first {
                    guard let command = state.commands.command(named: name) else {
                        throw ProtocolError(.unknownCommand, "unknown command '\(name)'")
                    }
                    commands = [command]
                }
                for c in commands {
                    let flags = c.flags.isEmpty ? "" : " [\(c.flags.joined(separator: "|"))]"
                    out.reply.record(["help", c.name, c.usageLine + flags, c.spec.summary])
                }
            }),
        Command(
            "commands",
            action: .run { _, state, out in
                for c in state.commands.commands { out.reply.record(["command", c.name]) }
            }),
        Command(
            "close",
            action: .run { _, _, out in out.closeConnection = true }),
        Command(
            "subscribe",
            action: .run { invocation, _, out throws(ProtocolError) in
                out.subscribe = try EventTopics.parse(Array(invocation.arguments))
            }),
        Command(
            "save",
            action: .deferred { _, state in
                state.persistence.saveNow(always: true).map { CommandOutput(listening: false) }
            }),
        Command(
            "refresh",
            action: .deferred { invocation, state in state.refreshGroup(invocation.arguments[0]) }),
        Command(
            "reload",
            action: .deferred { _, state in
                state.reload(because: "reload command").map { reply in
                    var output = CommandOutput(listening: false)
                    output.reply = reply.records
                    if let events = reply.events { output.carry(events) }
                    return output
                }
            }),
        Command(
            "begin",
            action: .beginBatch),
        Command(
            "end",
            action: .endBatch),
    ]
}
