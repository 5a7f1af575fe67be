import MenuCore
import MenuProtocol

/// The commands about the connection and the protocol itself, which work whatever
/// menu is loaded.
enum ServerCommands {
    static let daemonVersion = MenudRelease.version

    static let all: [Command] = [
        Command(
            name: "ping", usage: "", summary: "Answer OK; checks that the daemon is alive.",
            minArguments: 0, maxArguments: 0, batchable: true,
            action: .run { _, _, _ in }),
        Command(
            name: "version", usage: "", summary: "Print the protocol and daemon versions.",
            minArguments: 0, maxArguments: 0, batchable: true,
            action: .run { _, _, out in
                out.reply.record(["protocol", Greeting.protocolVersion])
                out.reply.record(["menud", daemonVersion])
            }),
        Command(
            name: "help", usage: "[COMMAND]", summary: "Describe every command, or one.",
            minArguments: 0, maxArguments: 1, batchable: false,
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
                    out.reply.record(["help", c.name, c.usageLine + flags, c.summary])
                }
            }),
        Command(
            name: "commands", usage: "", summary: "List the command names, one per line.",
            minArguments: 0, maxArguments: 0, batchable: false,
            action: .run { _, state, out in
                for c in state.commands.commands { out.reply.record(["command", c.name]) }
            }),
        Command(
            name: "close", usage: "", summary: "Answer OK and close the connection.",
            minArguments: 0, maxArguments: 0, batchable: false,
            action: .run { _, _, out in out.closeConnection = true }),
        Command(
            name: "subscribe", usage: "[TOPIC...]",
            summary:
                "Receive an event line for every change from now on (topics: \(EventTopics.nameList); default all).",
            minArguments: 0, maxArguments: EventTopics.names.count, batchable: false,
            action: .run { invocation, _, out throws(ProtocolError) in
                out.subscribe = try EventTopics.parse(Array(invocation.arguments))
            }),
        Command(
            name: "save", usage: "", summary: "Write the state file now; ERR save-failed when it cannot be.",
            minArguments: 0, maxArguments: 0, batchable: false,
            action: .deferred { _, state in state.saveNow().map { CommandOutput(listening: false) } }),
        Command(
            name: "reload", usage: "",
            summary:
                "Load the config again, keeping expansion and values; on errors keep the old menu and answer them.",
            minArguments: 0, maxArguments: 0, batchable: false,
            action: .deferred { _, state in
                state.reload(because: "reload command").map { reply in
                    var output = CommandOutput(listening: false)
                    output.reply = reply.records
                    if let events = reply.events { output.carry(events) }
                    return output
                }
            }),
        Command(
            name: "begin", usage: "",
            summary: "Start a batch: the following commands are queued and applied at 'end', all or none.",
            minArguments: 0, maxArguments: 0, batchable: false, action: .beginBatch),
        Command(
            name: "end", usage: "",
            summary: "Apply the batch started by 'begin' and answer once for all of it.",
            minArguments: 0, maxArguments: 0, batchable: false, action: .endBatch),
    ]
}
