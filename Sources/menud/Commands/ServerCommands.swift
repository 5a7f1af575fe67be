import MenuCore
import MenuProtocol

/// The commands about the connection and the protocol itself, which work whatever
/// menu is loaded.
enum ServerCommands {
    static let daemonVersion = MenudRelease.version

    static let ping: Command.Action = .run { _, _, _ in }

    static let version: Command.Action = .run { _, _, out in
        out.reply.record(["protocol", Greeting.protocolVersion])
        out.reply.record(["menud", daemonVersion])
    }

    static let help: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        var commands = service.commands.commands
        if let name = invocation.arguments.first {
            guard let command = service.commands.command(named: name) else {
                throw ProtocolError(.unknownCommand, "unknown command '\(name)'")
            }
            commands = [command]
        }
        for c in commands {
            let flags = c.flags.isEmpty ? "" : " [\(c.flags.joined(separator: "|"))]"
            out.reply.record(["help", c.name, c.usageLine + flags, c.spec.summary])
        }
    }

    static let commands: Command.Action = .run { _, service, out in
        for c in service.commands.commands { out.reply.record(["command", c.name]) }
    }

    static let close: Command.Action = .run { _, _, out in out.closeConnection = true }

    static let subscribe: Command.Action = .run { invocation, _, out throws(ProtocolError) in
        out.subscribe = try EventTopics.parse(Array(invocation.arguments))
    }

    static let save: Command.Action = .deferred { _, service in
        service.persistence.saveNow(always: true).map { CommandOutput(listening: false) }
    }

    static let refresh: Command.Action = .deferred { invocation, service in
        // The loads are known by their group's path, which a node named by number is
        // spelled as here.
        service.refreshGroup(invocation.node.map { service.model.path(of: $0) } ?? invocation.arguments[0])
    }

    static let reload: Command.Action = .deferred { _, service in
        service.reload(because: "reload command").map { reply in
            var output = CommandOutput(listening: false)
            output.reply = reply.records
            if let events = reply.events { output.carry(events) }
            return output
        }
    }
}
